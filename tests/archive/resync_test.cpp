// Recovery rules on small made-up archives: resynchronisation at any byte on a valid record
// head, declared lengths bounded by the next record start, and broken gzip members that do
// not take the next record with them. The damage campaign checks the same on real files.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "archive/reader.hpp"
#include "testing/archive_damage.hpp"
#include "testing/containers.hpp"

namespace strata::archive {
namespace {

std::string warc(int n, const std::string& block, std::string length = "") {
  if (length.empty()) length = std::to_string(block.size());
  return "WARC/1.0\r\nWARC-Type: resource\r\nWARC-Record-ID: <urn:uuid:" + std::to_string(n) +
         ">\r\nWARC-Date: 2020-01-01T00:00:00Z\r\nWARC-Target-URI: http://x/" + std::to_string(n) +
         "\r\nContent-Length: " + length + "\r\n\r\n" + block + "\r\n\r\n";
}

struct Read {
  std::vector<std::string> uris, blocks, problems;
};

Read read(const std::string& file, const std::string& name, const ReaderOptions& options = {}) {
  Read r;
  ProblemSink sink = [&r](const Problem& p) { r.problems.push_back(p.kind); };
  auto reader = ArchiveReader::open_memory(file, name, options, sink);
  while (reader->next()) {
    std::string block;
    reader->read_block(block, 1 << 20);
    r.uris.push_back(reader->record().target_uri);
    r.blocks.push_back(block);
  }
  return r;
}

const std::vector<std::string> kThree = {"http://x/1", "http://x/2", "http://x/3"};

TEST(Resync, OneJunkByteBeforeARecordLosesNothing) {
  Read r = read(warc(1, "one") + "x" + warc(2, "two") + warc(3, "three"), "a.warc");
  EXPECT_EQ(r.uris, kThree);
  EXPECT_EQ(r.blocks[1], "two");
  EXPECT_EQ(r.problems, std::vector<std::string>{"junk_between_records"});
}

TEST(Resync, JunkAtTheStartOfAPlainFile) {
  Read r = read("\x01junk" + warc(1, "one") + warc(2, "two") + warc(3, "three"), "a.warc");
  EXPECT_EQ(r.uris, kThree);
  EXPECT_EQ(r.problems, std::vector<std::string>{"junk_between_records"});
  EXPECT_TRUE(read("<html>WARC/1.0 is a format</html>", "a.html").uris.empty());
}

TEST(Resync, JunkBeforeAnArcLineOnTheSameLine) {
  std::string file =
      "filedesc://a.arc 0.0.0.0 20080430204825 text/plain 3\n1 0\n\n"
      "http://x/1 1.2.3.4 20080430204825 text/html 3\none\n"
      "#~http://x/2 1.2.3.4 20080430204826 text/html 3\ntwo\n";
  Read r = read(file, "a.arc");
  ASSERT_EQ(r.uris.size(), 3u);
  EXPECT_EQ(r.uris[2], "http://x/2");
  EXPECT_EQ(r.blocks[2], "two");
}

TEST(Resync, AWarcInsideAnIntactPayloadIsNotARecord) {
  Read r = read(warc(1, warc(9, "inner")) + warc(2, "two"), "a.warc");
  EXPECT_EQ(r.uris, (std::vector<std::string>{"http://x/1", "http://x/2"}));
  EXPECT_TRUE(r.problems.empty());
}

TEST(Resync, ALengthTooBigIsCutAtTheNextRecord) {
  Read r = read(warc(1, "one", "5000") + warc(2, "two") + warc(3, "three"), "a.warc");
  EXPECT_EQ(r.uris, kThree);
  EXPECT_EQ(r.blocks[0], "one");
  EXPECT_EQ(r.problems, std::vector<std::string>{"content_length_mismatch"});
}

// Blocks longer than the look-ahead: the next record is looked for with a read aside.
TEST(Resync, LongPlainBlocksAreCheckedWithoutReadingThem) {
  ReaderOptions small;
  small.prebuffer_bytes = 16;
  std::string longer(100, 'b');
  Read intact = read(warc(1, longer) + warc(2, "two") + warc(3, "three"), "a.warc", small);
  EXPECT_EQ(intact.uris, kThree);
  EXPECT_EQ(intact.blocks[0], longer);
  EXPECT_TRUE(intact.problems.empty());
  Read damaged = read(warc(1, "one", "5000") + warc(2, longer) + warc(3, "three"), "a.warc", small);
  EXPECT_EQ(damaged.uris, kThree);
  EXPECT_EQ(damaged.blocks[0], "one");
  EXPECT_EQ(damaged.blocks[1], longer);
  EXPECT_EQ(damaged.problems, std::vector<std::string>{"content_length_mismatch"});
}

TEST(Resync, AHugeLengthInAGzipMemberEndsWithTheMember) {
  std::string file = testing::gzip_member(warc(1, "one", "99999999")) +
                     testing::gzip_member(warc(2, "two")) + testing::gzip_member(warc(3, "three"));
  Read r = read(file, "a.warc.gz");
  EXPECT_EQ(r.uris, kThree);
  EXPECT_EQ(r.blocks[0], "one");
  EXPECT_EQ(r.problems, std::vector<std::string>{"content_length_mismatch"});
}

TEST(Resync, ATruncatedGzipMemberKeepsTheNextOne) {
  std::string first = testing::gzip_member(warc(1, std::string(3000, 'a')));
  std::string file = testing::gzip_member(warc(0, "zero")) + first.substr(0, first.size() / 2) +
                     testing::gzip_member(warc(2, "two")) + testing::gzip_member(warc(3, "three"));
  Read r = read(file, "a.warc.gz");
  ASSERT_GE(r.uris.size(), 3u);
  EXPECT_EQ(r.uris[r.uris.size() - 2], "http://x/2");
  EXPECT_EQ(r.blocks.back(), "three");
  EXPECT_FALSE(r.problems.empty());
}

}  // namespace
}  // namespace strata::archive
