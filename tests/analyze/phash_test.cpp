#include "analyze/phash.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <iostream>

#include "analyze/image.hpp"
#include "analyze/thumbnail.hpp"
#include "test_util.hpp"

namespace strata::analyze {
namespace {

using test::expected_hashes;
using Expected = test::ExpectedHashes;

uint64_t hash_file(const std::string& name) {
  const RgbImage image = test::decode_cat(name);
  return phash_rgb(image.rgb.data(), image.width, image.height);
}

TEST(Phash, HexRoundTripAndHamming) {
  EXPECT_EQ(phash_hex(0xd29499b7a706236bULL), "d29499b7a706236b");
  EXPECT_EQ(phash_from_hex("d29499b7a706236b"), 0xd29499b7a706236bULL);
  EXPECT_EQ(phash_from_hex("D29499B7A706236B"), 0xd29499b7a706236bULL);
  EXPECT_FALSE(phash_from_hex("xyz"));
  EXPECT_EQ(hamming_distance(0, ~uint64_t{0}), 64);
  EXPECT_EQ(hamming_distance(0xd29499b7a706236bULL, 0xd29499a7a726236bULL), 2);
}

// netarchivesuite/image-hashes conformance: every cat image hashes to exactly the expected
// value (the suite itself accepts <= 10 bits between near-duplicates), and the
// near-duplicate verdict against the original is the one the suite expects.
TEST(Phash, CatImagesMatchImageHashesSuite) {
  STRATA_REQUIRE_SHARED();
  const auto rows = expected_hashes();
  ASSERT_EQ(rows.size(), 12u);
  const uint64_t original = hash_file("cat_01_original.jpg");
  for (const Expected& row : rows) {
    const uint64_t hash = hash_file(row.file);
    const uint64_t want = *phash_from_hex(row.phash_hex);
    EXPECT_EQ(hash, want) << row.file << " got " << phash_hex(hash) << " want " << row.phash_hex;
    const bool near = hamming_distance(hash, original) <= kPhashNearDuplicate;
    EXPECT_EQ(near, row.phash_vs_original <= kPhashNearDuplicate) << row.file;
  }
}

// The analysis hashes the one decode the thumbnail is made from (shrink-on-load for large
// JPEGs): the same hash where that decode is full size, a few bits off where it was shrunk.
TEST(Phash, AnalysisDecodeKeepsTheSuiteHashes) {
  STRATA_REQUIRE_SHARED();
  int worst = 0, shrunk = 0;
  for (const Expected& row : expected_hashes()) {
    const std::string bytes = test::read_file(test::cat_image(row.file));
    Thumbnail t;
    ASSERT_EQ(make_thumbnail(bytes, {}, t), DecodeStatus::ok) << row.file;
    const uint64_t hash = phash_rgb(t.decoded.rgb.data(), t.decoded.width, t.decoded.height);
    const int distance = hamming_distance(hash, *phash_from_hex(row.phash_hex));
    if (t.decoded.width == t.source.width) {
      EXPECT_EQ(distance, 0) << row.file;
    }
    shrunk += t.decoded.width != t.source.width;
    worst = std::max(worst, distance);
  }
  EXPECT_LE(worst, 4);
  std::cout << "  " << shrunk << " cat images shrunk on load, largest distance " << worst << "\n";
}

// Every flat picture hashes to 0 (the near-duplicate gate's "degenerate"), whatever its grey
// level: its DCT's rounding noise once gave a few pseudo-random hashes that every picture of
// one level shared, at distance 0.
TEST(Phash, FlatImageHashesToZero) {
  for (int level : {0, 1, 17, 128, 200, 255}) {
    std::vector<uint8_t> grey(64 * 48 * 3, static_cast<uint8_t>(level));
    EXPECT_EQ(phash_rgb(grey.data(), 64, 48), 0u) << "grey " << level;
  }
  // One grey level of detail in both directions (the hashed block skips the first row and
  // column of the DCT: a picture that varies along one axis only has no signal there either).
  std::vector<uint8_t> corner(64 * 48 * 3, 100);
  for (int y = 0; y < 24; ++y) std::fill_n(corner.begin() + y * 64 * 3, 32 * 3, 101);
  EXPECT_NE(phash_rgb(corner.data(), 64, 48), 0u);
  EXPECT_EQ(phash_rgb(nullptr, 0, 0), 0u);
}

}  // namespace
}  // namespace strata::analyze
