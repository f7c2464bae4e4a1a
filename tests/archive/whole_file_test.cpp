// Whole-file compression: aut's example.warc.gz decoded and re-compressed by the test as one
// gzip member, gzip members cut every 1 MB (anywhere in a record), one zstd frame and zstd
// frames cut every 1 MB. Records are located by their offset in the decoded stream
// (Record::location()); every one must be read again there, through the checkpoint index.
#include <gtest/gtest.h>

#include "archive/checkpoints.hpp"
#include "archive/locate.hpp"
#include "decode_from.hpp"
#include "read_helpers.hpp"
#include "testing/containers.hpp"
#include "testing/shared_data.hpp"

namespace strata::archive {
namespace {

namespace fs = std::filesystem;

const std::string& example_decoded() {
  static const std::string decoded = testing::gunzip_all(testing::read_file(testing::shared_data(
      "archives/archivesunleashed__aut/src/test/resources/warc/example.warc.gz")));
  return decoded;
}

enum class Packing { gzip_one, gzip_chunks, zstd_one, zstd_chunks };
constexpr size_t kChunk = 1'000'000;

std::string pack(Packing p) {
  const std::string& d = example_decoded();
  switch (p) {
    case Packing::gzip_one:
      return testing::gzip_whole(d);
    case Packing::gzip_chunks:
      return testing::gzip_whole(d, kChunk);
    case Packing::zstd_one:
      return testing::zstd_whole(d);
    case Packing::zstd_chunks:
      return testing::zstd_whole(d, kChunk);
  }
  return {};
}

class WholeFile : public ::testing::TestWithParam<Packing> {};

TEST_P(WholeFile, CheckpointsResumeDecodingExactly) {
  STRATA_REQUIRE_SHARED();
  const std::string packed = pack(GetParam());
  const std::string& decoded = example_decoded();
  CheckpointIndex index;
  std::string error;
  auto input = memory_input(packed);
  ASSERT_TRUE(build_checkpoints(*input, index, error, 256 << 10)) << error;
  EXPECT_EQ(index.decoded_size, decoded.size());
  const bool one_frame = GetParam() == Packing::zstd_one;
  // gzip: a point at the first deflate block boundary past every 256 KiB (blocks hold up to
  // a few hundred KiB); zstd: at frame starts only.
  EXPECT_GE(index.points.size(), one_frame ? 1u : decoded.size() / kChunk);
  for (const Checkpoint& p : index.points) {
    EXPECT_EQ(decode_from(packed, index, p, 100'000), decoded.substr(p.decoded, 100'000))
        << "checkpoint at " << p.decoded;
    if (p.window.empty()) continue;
    EXPECT_EQ(p.window, decoded.substr(p.decoded - p.window.size(), p.window.size()));
  }
}

TEST_P(WholeFile, EveryImageAndEveryTenthRecordIsReadAgainAtItsLocation) {
  STRATA_REQUIRE_SHARED();
  const fs::path path = testing::scratch_dir() / "example.warc.packed";
  testing::write_file(path, pack(GetParam()));
  const test::Summary all = test::read_all(path);
  ASSERT_EQ(all.records.size(), 822u);
  EXPECT_TRUE(all.problems.empty()) << all.problems.front().kind;
  size_t checked = 0;
  for (size_t i = 0; i < all.records.size(); ++i) {
    const Record& r = all.records[i];
    if (i % 10 != 0 && r.http.mime.rfind("image/", 0) != 0) continue;
    CheckedRecord again = read_checked_record(path.string(), r.location(), r.target_uri);
    ASSERT_TRUE(again.reader) << again.error;
    EXPECT_EQ(again.reader->record().record_id, r.record_id);
    EXPECT_EQ(again.reader->record().length, r.length);
    std::string payload;
    again.reader->read_payload(payload);
    EXPECT_EQ(payload, all.payloads[i]) << r.target_uri;
    ++checked;
  }
  EXPECT_GT(checked, 100u);
}

INSTANTIATE_TEST_SUITE_P(Packings, WholeFile,
                         ::testing::Values(Packing::gzip_one, Packing::gzip_chunks,
                                           Packing::zstd_one, Packing::zstd_chunks));

TEST(WholeFile, InsideAWaczMember) {
  STRATA_REQUIRE_SHARED();
  const fs::path path = testing::scratch_dir() / "whole.wacz";
  testing::write_zip(
      path, {{"archive/data.warc.gz", pack(Packing::gzip_chunks)}, {"datapackage.json", "{}"}});
  const test::Summary all = test::read_all(path);
  ASSERT_EQ(all.records.size(), 822u);
  for (size_t i = 0; i < all.records.size(); i += 37) {
    const Record& r = all.records[i];
    EXPECT_EQ(r.file, path.string() + "#archive/data.warc.gz");
    CheckedRecord again = read_checked_record(r.file, r.location(), r.target_uri);
    ASSERT_TRUE(again.reader) << again.error;
    EXPECT_EQ(again.reader->record().record_id, r.record_id);
  }
}

TEST(WholeFile, DamageEndsTheIndexAndNothingPastItIsRead) {
  STRATA_REQUIRE_SHARED();
  const std::string packed = pack(Packing::gzip_one);
  const std::string cut = packed.substr(0, packed.size() / 2);
  CheckpointIndex index;
  std::string error;
  auto input = memory_input(cut);
  ASSERT_TRUE(build_checkpoints(*input, index, error));
  EXPECT_GT(index.decoded_size, 0u);
  EXPECT_LT(index.decoded_size, example_decoded().size());
  const fs::path path = testing::scratch_dir() / "cut.warc.gz";
  testing::write_file(path, cut);
  EXPECT_FALSE(read_record_at(path.string(), example_decoded().size() - 1000, {}, {}));
}

TEST(WholeFile, PlainInputHasNoCheckpoints) {
  CheckpointIndex index;
  std::string error;
  auto input = memory_input("WARC/1.1\r\n");
  EXPECT_FALSE(build_checkpoints(*input, index, error));
  EXPECT_FALSE(error.empty());
}

}  // namespace
}  // namespace strata::archive
