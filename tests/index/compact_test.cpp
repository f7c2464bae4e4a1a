#include "index/compact.hpp"

#include <gtest/gtest.h>
#include <xapian.h>

#include <fstream>

#include "index/writer.hpp"
#include "testing/shared_data.hpp"

namespace strata::index {
namespace {

namespace fs = std::filesystem;

merge::ImageDocument doc(int i) {
  merge::ImageDocument d;
  d.id = d.imgDigest = "digest-" + std::to_string(i);
  d.imgUrl = "http://x.pt/imagens/" + std::to_string(i) + ".png";
  d.imgCrawlTimestamp = d.imgCrawlTimestampLatest = "20100101000000";
  d.imgAlt = {"farol da barra " + std::to_string(i)};
  d.collection = {"c1"};
  return d;
}

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
