// The record store: uniqueness of records, the merge's key rule, the closure S0 -> D0 -> S1
// of docs/merge.md "Incremental merge", removals and batches.
#include "store/record_store.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>

#include "extract/records.hpp"
#include "testing/shared_data.hpp"

namespace strata::store {
namespace {

namespace fs = std::filesystem;

extract::ImageCapture capture(const std::string& surt, const std::string& digest, uint64_t offset,
                              const std::string& collection = "c1") {
  extract::ImageCapture c;
  c.imgSurt = surt;
  c.imgUrl = "http://" + surt;
  c.timestamp = "20200101000000";
  c.collection = collection;
  c.file = "a.warc.gz";
  c.offset = offset;
  c.digest = digest;
  c.warcDigest = "sha1:" + digest;
  return c;
}

extract::PageReference reference(const std::string& surt, uint64_t page_offset,
                                 const std::string& collection = "c1") {
  extract::PageReference r;
  r.imgSurt = surt;
  r.pageUrl = "http://page";
  r.pageTimestamp = "20200101000000";
  r.collection = collection;
  r.file = "a.warc.gz";
  r.offset = page_offset;
  return r;
}

fs::path write_lines(const fs::path& file, const std::vector<std::string>& lines) {
  std::ofstream out(file);
  for (const auto& line : lines) out << line;
  return file;
}

std::set<std::string> exported_keys(RecordStore& store) {
  std::ostringstream out;
  store.export_affected(out);
  std::istringstream in(out.str());
  std::set<std::string> keys;
  for (std::string line; std::getline(in, line);)
    keys.insert(Json::parse(line)["imgSurt"].get<std::string>());
  return keys;
}

TEST(RecordStore, StoresARecordOnceWhateverTheBatch) {
  const fs::path dir = testing::scratch_dir();
  RecordStore store(dir);
  // Two references of one page at one offset are two records (ordinal 0 and 1).
  const auto file =
      write_lines(dir / "part.jsonl",
                  {extract::to_jsonl(capture("a", "d1", 10)), extract::to_jsonl(reference("a", 5)),
                   extract::to_jsonl(reference("b", 5)), "not json\n"});
  const BatchInsert first = store.add_batch("c1", {file});
  EXPECT_EQ(first.batch, 1);
  EXPECT_EQ(first.inserted, 3u);
  EXPECT_EQ(first.not_records, 1u);
  const BatchInsert again = store.add_batch("c2", {file});
  EXPECT_EQ(again.batch, 0);  // nothing new: no batch
  EXPECT_EQ(again.inserted, 0u);
  EXPECT_EQ(again.already_stored, 3u);
  EXPECT_EQ(store.last_batch(), 1);
  ASSERT_EQ(store.collections().size(), 1u);
  EXPECT_EQ(store.collections()[0].records, 3);
}

TEST(RecordStore, ClosureReachesEveryKeyOfAnAffectedDigest) {
  const fs::path dir = testing::scratch_dir();
  RecordStore store(dir);
  // Batch 1: digest d1 under SURTs a and b, d2 under c (untouched later).
  store.add_batch("c1", {write_lines(dir / "1.jsonl", {extract::to_jsonl(capture("a", "d1", 1)),
                                                       extract::to_jsonl(capture("b", "d1", 2)),
                                                       extract::to_jsonl(capture("c", "d2", 3)),
                                                       extract::to_jsonl(reference("b", 9))})});
  // Batch 2: a new reference to a only; a revisit filed under its refersToSurt a.
  extract::ImageRevisit revisit;
  revisit.imgSurt = "z";
  revisit.refersToSurt = "a";
  revisit.file = "b.warc.gz";
  revisit.warcDigest = "sha1:d1";
  store.add_batch("c2", {write_lines(dir / "2.jsonl", {extract::to_jsonl(reference("a", 20)),
                                                       extract::to_jsonl(revisit)})});
  const Affected affected = store.select_affected(1);
  EXPECT_FALSE(affected.everything);
  EXPECT_EQ(affected.keys_changed, 1u);  // a (the revisit's key is a too)
  EXPECT_EQ(affected.digests, 1u);       // d1
  EXPECT_EQ(affected.keys_merged, 2u);   // a, b
  EXPECT_EQ(exported_keys(store), (std::set<std::string>{"a", "b", "z"}));
  std::vector<std::string> digests;
  store.for_each_affected_digest([&](std::string_view d) { digests.emplace_back(d); });
  EXPECT_EQ(digests, std::vector<std::string>{"d1"});
  EXPECT_TRUE(store.select_affected(0).everything);
  EXPECT_EQ(exported_keys(store), (std::set<std::string>{"a", "b", "c", "z"}));
}

TEST(RecordStore, RemovalHidesThenDeletesACollection) {
  const fs::path dir = testing::scratch_dir();
  RecordStore store(dir);
  store.add_batch("c1", {write_lines(dir / "1.jsonl", {extract::to_jsonl(capture("a", "d1", 1)),
                                                       extract::to_jsonl(reference("a", 9))})});
  store.add_batch(
      "c2", {write_lines(dir / "2.jsonl", {extract::to_jsonl(capture("a", "d1", 100, "c2")),
                                           extract::to_jsonl(capture("x", "d3", 101, "c2"))})});
  store.finish(2);
  EXPECT_EQ(store.mark_removal("nothing"), 0);
  const int64_t removal = store.mark_removal("c2");
  EXPECT_EQ(removal, 3);
  ASSERT_EQ(store.batches_after(2).size(), 1u);
  EXPECT_TRUE(store.batches_after(2)[0].removal);
  const Affected affected = store.select_affected(2);
  EXPECT_EQ(affected.digests, 2u);  // d1 (kept, rebuilt) and d3 (gone)
  std::ostringstream out;
  EXPECT_EQ(store.export_affected(out), 2u);  // c1's capture and reference only
  store.finish(removal);
  ASSERT_EQ(store.collections().size(), 1u);
  EXPECT_EQ(store.collections()[0].name, "c1");
}

TEST(RecordStore, RefusesAStoreOfTheOlderLayout) {
  const fs::path dir = strata::testing::scratch_dir();
  {
    Database db(store_file(dir));  // the layout with text keys had no user_version
    db.exec("CREATE TABLE records (key TEXT)");
  }
  try {
    RecordStore store(dir);
    FAIL() << "opened";
  } catch (const StoreError& e) {
    EXPECT_NE(std::string(e.what()).find("older layout"), std::string::npos) << e.what();
  }
  fs::create_directories(dir / "new");
  { RecordStore fresh(dir / "new"); }
  EXPECT_NO_THROW(RecordStore(dir / "new"));  // a new store has the current layout
}

TEST(RecordStore, UnwritableFolderIsAStoreError) {
  EXPECT_THROW(RecordStore("/proc/no-such-folder"), StoreError);
}

}  // namespace
}  // namespace strata::store
