// Per-record gzip WARCs whose members take every decoding path: small members decoded whole,
// members whose output or compressed size exceeds what is decoded in one call (streamed),
// and corrupt or truncated members (reported, the other records kept). Each record must come
// back with its exact block, offset and length.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "archive/reader.hpp"
#include "testing/containers.hpp"

namespace strata::archive {
namespace {

struct Member {
  std::string block;  // the record's content block
  std::string bytes;  // the gzip member on disk
};

Member record(int n, std::string block) {
  std::string raw = "WARC/1.1\r\nWARC-Type: resource\r\nWARC-Target-URI: http://x/" +
                    std::to_string(n) + "\r\nContent-Length: " + std::to_string(block.size()) +
                    "\r\n\r\n" + block + "\r\n\r\n";
  return {std::move(block), testing::gzip_member(raw)};
}

// Bytes that deflate cannot shrink (a linear congruential sequence).
std::string noise(size_t n) {
  std::string s(n, '\0');
  uint32_t x = 12345;
  for (char& c : s) {
    x = x * 1103515245u + 12345u;
    c = static_cast<char>(x >> 24);
  }
  return s;
}

std::string compressible(size_t n) {
  std::string s(n, 'a');
  for (size_t i = 0; i < n; i += 4097) s[i] = static_cast<char>('a' + i % 26);
  return s;
}

struct Read {
  std::vector<std::string> blocks;
  std::vector<uint64_t> offsets, lengths;
  std::vector<Problem> problems;
};

Read read(const std::string& file) {
  Read r;
  ProblemSink sink = [&r](const Problem& p) { r.problems.push_back(p); };
  auto reader = ArchiveReader::open_memory(file, "members.warc.gz", {}, sink);
  while (reader->next()) {
    std::string block;
    EXPECT_EQ(reader->read_block(block, 16 << 20), PayloadStatus::ok);
    reader->finish_record();
    r.blocks.push_back(std::move(block));
    r.offsets.push_back(reader->record().offset);
    r.lengths.push_back(reader->record().length);
  }
  return r;
}

std::vector<Member> members_of_every_size() {
  std::vector<Member> m;
  m.push_back(record(0, "small"));
  m.push_back(record(1, compressible(3 << 20)));  // output over one step, under 4 MiB
  m.push_back(record(2, "small again"));
  m.push_back(record(3, compressible(6 << 20)));  // output over 4 MiB: streamed
  m.push_back(record(4, noise(1536 << 10)));      // compressed size over the input buffer
  for (int i = 5; i < 400; ++i) m.push_back(record(i, noise(static_cast<size_t>(i) * 37)));
  return m;
}

TEST(GzipMembers, EveryRecordExactWhateverItsSize) {
  std::vector<Member> members = members_of_every_size();
  std::string file;
  std::vector<uint64_t> offsets;
  for (const Member& m : members) {
    offsets.push_back(file.size());
    file += m.bytes;
  }
  Read r = read(file);
  ASSERT_EQ(r.blocks.size(), members.size());
  for (size_t i = 0; i < members.size(); ++i) {
    EXPECT_TRUE(r.blocks[i] == members[i].block) << "record " << i;
    EXPECT_EQ(r.offsets[i], offsets[i]) << "record " << i;
    EXPECT_EQ(r.lengths[i], members[i].bytes.size()) << "record " << i;
  }
  for (const Problem& p : r.problems) ADD_FAILURE() << to_string(p);
}

TEST(GzipMembers, CorruptMemberIsReportedAndTheOthersKept) {
  std::vector<Member> members = {record(0, "first"), record(1, noise(5000)), record(2, "last")};
  std::string broken = members[1].bytes;
  for (size_t i = 40; i < 80; ++i) broken[i] = static_cast<char>(broken[i] ^ 0x5a);
  std::string file = members[0].bytes + broken + members[2].bytes;
  Read r = read(file);
  ASSERT_EQ(r.blocks.size(), 2u);
  EXPECT_EQ(r.blocks[0], "first");
  EXPECT_EQ(r.blocks[1], "last");
  EXPECT_EQ(r.offsets[1], members[0].bytes.size() + broken.size());
  ASSERT_FALSE(r.problems.empty());
  EXPECT_EQ(r.problems[0].kind, "corrupt_gzip_member");
  EXPECT_EQ(r.problems[0].offset, members[0].bytes.size());
}

TEST(GzipMembers, TruncatedLastMemberIsReportedAndWhatItHoldsKept) {
  std::vector<Member> members = {record(0, "first"), record(1, noise(5000))};
  std::string file = members[0].bytes + members[1].bytes.substr(0, 3000);
  Read r = read(file);
  ASSERT_EQ(r.blocks.size(), 2u);
  EXPECT_EQ(r.blocks[0], "first");
  EXPECT_GT(r.blocks[1].size(), 2000u);
  EXPECT_TRUE(members[1].block.starts_with(r.blocks[1]));
  ASSERT_FALSE(r.problems.empty());
  EXPECT_EQ(r.problems[0].kind, "truncated_gzip_member");
  EXPECT_EQ(r.problems[0].offset, members[0].bytes.size());
}

}  // namespace
}  // namespace strata::archive
