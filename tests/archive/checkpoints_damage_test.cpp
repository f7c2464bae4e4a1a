// Damaged whole-file archives through the checkpoint index: decoding resumed at any checkpoint
// gives exactly the bytes a decode from the start gives there, and nothing past decoded_size
// (the fuzz_checkpoints property, on the shapes it found: a gzip member whose back-reference
// reaches before the member start, a damaged member CRC, a truncated zstd frame).
#include <gtest/gtest.h>
#include <zlib.h>
#include <zstd.h>

#include "archive/checkpoints.hpp"
#include "decode_from.hpp"
#include "testing/containers.hpp"

namespace strata::archive {
namespace {

// Bytes deflate finds no repeats in.
std::string noise(size_t n, uint32_t seed) {
  std::string out(n, '\0');
  for (char& c : out) {
    seed = seed * 1664525u + 1013904223u;
    c = static_cast<char>(seed >> 24);
  }
  return out;
}

// One gzip member of `parts` joined, a deflate block boundary after each part; compressed
// as if `dictionary` came before, which the member itself does not hold.
std::string member_of(const std::vector<std::string>& parts, const std::string& dictionary = {}) {
  z_stream z{};
  deflateInit2(&z, 6, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY);
  if (!dictionary.empty())
    deflateSetDictionary(&z, reinterpret_cast<const Bytef*>(dictionary.data()),
                         static_cast<uInt>(dictionary.size()));
  std::string out("\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff", 10);
  uLong crc = crc32(0, nullptr, 0), size = 0;
  for (size_t i = 0; i < parts.size(); ++i) {
    const std::string& part = parts[i];
    std::string block(deflateBound(&z, part.size()) + 64, '\0');
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(part.data()));
    z.avail_in = static_cast<uInt>(part.size());
    z.next_out = reinterpret_cast<Bytef*>(block.data());
    z.avail_out = static_cast<uInt>(block.size());
    deflate(&z, i + 1 == parts.size() ? Z_FINISH : Z_SYNC_FLUSH);
    out.append(block.data(), block.size() - z.avail_out);
    crc = crc32(crc, reinterpret_cast<const Bytef*>(part.data()), static_cast<uInt>(part.size()));
    size += part.size();
  }
  deflateEnd(&z);
  for (uLong v : {crc, size})
    for (int shift = 0; shift < 32; shift += 8) out.push_back(static_cast<char>(v >> shift));
  return out;
}

// Builds the index with 1 KiB spacing and checks every checkpoint against the decode from
// the start; returns that decode.
std::string check_every_checkpoint(const std::string& packed, CheckpointIndex& index) {
  std::string error;
  auto input = memory_input(packed);
  EXPECT_TRUE(build_checkpoints(*input, index, error, 1024)) << error;
  const std::string whole = decode_from(packed, index, index.points.front(), 1 << 20);
  EXPECT_EQ(whole.size(), index.decoded_size);
  for (const Checkpoint& p : index.points)
    EXPECT_TRUE(decode_from(packed, index, p, 1 << 20) == whole.substr(p.decoded))
        << "checkpoint at " << p.decoded;
  return whole;
}

TEST(CheckpointDamage, BackReferenceBeforeTheMemberStartEndsTheIndex) {
  const std::string first = noise(2000, 1), fresh = noise(2000, 2);
  // The second member's last block copies from the first member: invalid in gzip, where
  // every member starts with an empty window.
  const std::string packed =
      testing::gzip_member(first) + member_of({fresh, first.substr(0, 500)}, first);
  CheckpointIndex index;
  const std::string whole = check_every_checkpoint(packed, index);
  EXPECT_TRUE(whole.starts_with(first + fresh));
  EXPECT_LT(whole.size(), first.size() + fresh.size() + 100);  // stops at the copy
  EXPECT_GE(index.points.size(), 3u);  // the start, the second member, its block boundary
}

TEST(CheckpointDamage, DamagedMemberCrcEndsTheIndex) {
  const std::string a = noise(2000, 3), b = noise(2000, 4), next = noise(3000, 5);
  std::string damaged = member_of({a, b});
  damaged[damaged.size() - 8] ^= 1;  // the CRC
  const std::string packed = damaged + testing::gzip_member(next);
  CheckpointIndex index;
  EXPECT_TRUE(check_every_checkpoint(packed, index) == a + b);
  EXPECT_GE(index.points.size(), 2u);  // a checkpoint inside the damaged member
}

TEST(CheckpointDamage, TruncatedZstdFrameIsNotIndexed) {
  const std::string first = noise(3000, 6), second = noise(3000, 7);
  const std::string cut = testing::zstd_whole(second);
  const std::string packed = testing::zstd_whole(first) + cut.substr(0, cut.size() - 100);
  CheckpointIndex index;
  EXPECT_TRUE(check_every_checkpoint(packed, index) == first);
  ASSERT_EQ(index.points.size(), 2u);  // the start and the second frame
  EXPECT_EQ(index.points[1].decoded, first.size());
}

}  // namespace
}  // namespace strata::archive
