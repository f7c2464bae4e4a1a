#include "index/compact.hpp"

#include <gtest/gtest.h>
#include <xapian.h>

#include <fstream>

#include "index/schema.hpp"
#include "index/stored_data.hpp"
#include "index/timestamp_value.hpp"
#include "index/writer.hpp"
#include "numbered_document.hpp"
#include "testing/shared_data.hpp"

namespace strata::index {
namespace {

namespace fs = std::filesystem;

auto doc = testing::numbered_document;

TEST(Compact, CopyHasEveryDocumentAndTheFilesBesideTheTablesAndIsSmaller) {
  const fs::path dir = strata::testing::scratch_dir();
  const fs::path from = dir / "index", to = dir / "compacted";
  {
    IndexWriter w(from);
    for (int round = 0; round < 2; ++round)  // rewritten documents leave half-empty blocks
      for (int i = 0; i < 3000; ++i) w.add(doc(i + round * 1000));
  }
  std::ofstream(from / "analysis.jsonl") << "{}\n";
  fs::create_directories(from / "thumbs" / "ab");
  std::ofstream(from / "thumbs" / "ab" / "cd.webp") << "webp";

  const CompactReport r = compact_index(from, to);
  EXPECT_EQ(r.documents, 4000u);
  EXPECT_LT(r.bytes_after, r.bytes_before);
  EXPECT_TRUE(fs::exists(to / "analysis.jsonl"));
  EXPECT_TRUE(fs::exists(to / "thumbs" / "ab" / "cd.webp"));
  EXPECT_FALSE(fs::exists(dir / "compacted.partial"));
  Xapian::Database copy(to.string());
  EXPECT_EQ(copy.get_doccount(), 4000u);
  IndexWriter reopened(to);
  EXPECT_EQ(reopened.get("digest-3999")->imgUrl, doc(3999).imgUrl);
}

TEST(Compact, ServingCopyHasNoTermlistAnswersQueriesAndWritersRefuseIt) {
  const fs::path dir = strata::testing::scratch_dir();
  const fs::path from = dir / "index", to = dir / "serving";
  {
    IndexWriter w(from);
    for (int i = 0; i < 5000; ++i) w.add(doc(i));  // enough for the stored-data dictionary
  }
  const CompactReport r = compact_index(from, to, CompactMode::serving);
  EXPECT_FALSE(fs::exists(to / "termlist.glass"));
  EXPECT_TRUE(is_serving_copy(to));
  EXPECT_FALSE(is_serving_copy(from));
  Xapian::Database db(to.string());
  Xapian::Enquire enquire(db);
  const std::vector<Xapian::Query> words{Xapian::Query("farol"), Xapian::Query("da")};
  enquire.set_query(Xapian::Query(Xapian::Query::OP_PHRASE, words.begin(), words.end(), 2));
  const Xapian::MSet hits = enquire.get_mset(0, 10);
  EXPECT_EQ(hits.get_matches_estimated(), 5000u);
  const Xapian::Document first = hits.begin().get_document();
  EXPECT_EQ(unpack_timestamp(first.get_value(slot::timestamp)), "20100101000000");
  EXPECT_NE(StoredData(db).unpack(first.get_data()).find("farol da barra"), std::string::npos);
  EXPECT_LT(r.bytes_after, compact_index(from, dir / "full").bytes_after);
  EXPECT_THROW(IndexWriter{to}, std::runtime_error);
}

// Shards that trained their own stored-data dictionaries (and one too small to have one)
// merged into one index: every document readable with the merged index's one dictionary.
TEST(Compact, ShardsWithTheirOwnDictionariesMergeIntoOneReadableIndex) {
  const fs::path dir = strata::testing::scratch_dir();
  const std::vector<std::pair<int, int>> ranges{{0, 4200}, {10000, 14200}, {20000, 20100}};
  std::vector<fs::path> shards;
  for (const auto& [first, end] : ranges) {
    shards.push_back(dir / ("shard-" + std::to_string(shards.size())));
    IndexWriter w(shards.back());
    for (int i = first; i < end; ++i) w.add(doc(i));
  }
  const auto dictionary = [](const fs::path& folder) {
    return Xapian::Database(folder.string()).get_metadata(std::string(kMetaDictionary));
  };
  ASSERT_FALSE(dictionary(shards[0]).empty());
  ASSERT_FALSE(dictionary(shards[1]).empty());
  ASSERT_NE(dictionary(shards[0]), dictionary(shards[1]));
  ASSERT_TRUE(dictionary(shards[2]).empty());
  EXPECT_EQ(compact_index(shards, dir / "one").documents, 8500u);
  EXPECT_EQ(dictionary(dir / "one"), dictionary(shards[0]));
  IndexWriter merged(dir / "one");
  for (const auto& [first, end] : ranges)
    for (int i = first; i < end; ++i) {
      const auto got = merged.get("digest-" + std::to_string(i));
      ASSERT_TRUE(got) << i;
      EXPECT_EQ(got->imgUrl, doc(i).imgUrl) << i;
    }
}

TEST(Compact, RefusesAnExistingTargetAndAFolderThatIsNoIndex) {
  const fs::path dir = strata::testing::scratch_dir();
  { IndexWriter w(dir / "index"); }
  fs::create_directories(dir / "taken");
  EXPECT_THROW(compact_index(dir / "index", dir / "taken"), std::runtime_error);
  EXPECT_THROW(compact_index(dir / "taken", dir / "new"), std::runtime_error);
  EXPECT_FALSE(fs::exists(dir / "new"));
}

}  // namespace
}  // namespace strata::index
