#include "analyze/pdq.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <iostream>

#include "analyze/image.hpp"
#include "analyze/thumbnail.hpp"
#include "test_util.hpp"

namespace strata::analyze {
namespace {

PdqResult hash_file(const std::string& name) {
  const RgbImage image = test::decode_cat(name);
  return pdq_rgb(image.rgb.data(), image.width, image.height);
}

TEST(Pdq, HexRoundTripAndHamming) {
  const std::string hex = "7c744d5ce9c82d4ec65e6b138dd63b9699966644a360e1e1b165da19b6295c4b";
  const auto hash = pdq_from_hex(hex);
  ASSERT_TRUE(hash);
  EXPECT_EQ((*hash)[0], 0x7c744d5ce9c82d4eULL);
  EXPECT_EQ(pdq_hex(*hash), hex);
  EXPECT_FALSE(pdq_from_hex(hex.substr(1)));
  EXPECT_FALSE(pdq_from_hex(std::string(64, 'g')));
  EXPECT_EQ(hamming_distance(PdqHash{}, PdqHash{~0ULL, ~0ULL, ~0ULL, ~0ULL}), 256);
  // The suite's distances: original vs grayscale differ in 2 bits.
  EXPECT_EQ(hamming_distance(*hash, *pdq_from_hex("7c744d5ca9c8ad4ec65e6b138dd63b9699966644a360e1"
                                                  "e1b165da19b6295c4b")),
            2);
}

// netarchivesuite/image-hashes conformance (its PDQ is Meta's C++ pdqhash). The reference's
// README says ports agree "to within a few bits" (float order, image decoders); we ask for
// every hash within kPortTolerance of the suite's, and the suite's near/far verdict against
// the original at its threshold.
constexpr int kPortTolerance = 4;

TEST(Pdq, CatImagesMatchImageHashesSuite) {
  STRATA_REQUIRE_SHARED();
  const auto rows = test::expected_hashes();
  ASSERT_EQ(rows.size(), 12u);
  const PdqHash original = hash_file("cat_01_original.jpg").hash;
  int worst = 0, exact = 0;
  for (const auto& row : rows) {
    const PdqResult got = hash_file(row.file);
    const int distance = hamming_distance(got.hash, *pdq_from_hex(row.pdq_hex));
    EXPECT_LE(distance, kPortTolerance)
        << row.file << " got " << pdq_hex(got.hash) << " want " << row.pdq_hex;
    worst = std::max(worst, distance);
    exact += distance == 0;
    EXPECT_GE(got.quality, kPdqMinQuality) << row.file;
    const bool near = hamming_distance(got.hash, original) <= kPdqNearDuplicate;
    EXPECT_EQ(near, row.pdq_vs_original <= kPdqNearDuplicate) << row.file;
  }
  std::cout << "  " << exact << " of 12 cat PDQ hashes exact, largest distance " << worst << "\n";
}

// The analysis hashes the thumbnail's decode, which shrinks large JPEGs on load (the cats
// by 2): those hashes move as far as the suite's own "downscaled to 25%" copy does (16 bits),
// half the near-duplicate threshold.
TEST(Pdq, AnalysisDecodeStaysNearTheSuiteHashes) {
  STRATA_REQUIRE_SHARED();
  const auto rows = test::expected_hashes();
  ASSERT_EQ(rows.at(1).file, "cat_02_downscaled.jpg");
  int worst = 0;
  for (const auto& row : rows) {
    Thumbnail t;
    ASSERT_EQ(make_thumbnail(test::read_file(test::cat_image(row.file)), {}, t), DecodeStatus::ok);
    const PdqResult got = pdq_rgb(t.decoded.rgb.data(), t.decoded.width, t.decoded.height);
    const int distance = hamming_distance(got.hash, *pdq_from_hex(row.pdq_hex));
    worst = std::max(worst, distance);
  }
  EXPECT_LE(worst, rows[1].pdq_vs_original);
  std::cout << "  largest distance from the analysis decode " << worst << "\n";
}

TEST(Pdq, FlatAndTinyPicturesHaveNoQuality) {
  std::vector<uint8_t> grey(64 * 48 * 3, 128);
  EXPECT_EQ(pdq_rgb(grey.data(), 64, 48).quality, 0);
  const PdqResult tiny = pdq_rgb(grey.data(), 4, 4);
  EXPECT_EQ(tiny.quality, 0);
  EXPECT_EQ(tiny.hash, PdqHash{});
  EXPECT_EQ(pdq_rgb(nullptr, 64, 48).quality, 0);
}

// A picture and its half-size copy (box-averaged) are near-duplicates; its mirror is not.
TEST(Pdq, DownscaleIsNearMirrorIsFar) {
  const int w = 200, h = 150;
  std::vector<uint8_t> big(w * h * 3), mirror(w * h * 3), half(w / 2 * h / 2 * 3);
  auto value = [](int x, int y) {
    return static_cast<uint8_t>((x * 7 + y * 3 + (x * y) / 40 + (x / 25 % 2) * 90) % 256);
  };
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      for (int c = 0; c < 3; ++c) {
        big[(y * w + x) * 3 + c] = value(x, y);
        mirror[(y * w + (w - 1 - x)) * 3 + c] = value(x, y);
      }
  for (int y = 0; y < h / 2; ++y)
    for (int x = 0; x < w / 2; ++x)
      for (int c = 0; c < 3; ++c) {
        int sum = 0;
        for (int dy = 0; dy < 2; ++dy)
          for (int dx = 0; dx < 2; ++dx) sum += value(2 * x + dx, 2 * y + dy);
        half[(y * (w / 2) + x) * 3 + c] = static_cast<uint8_t>(sum / 4);
      }
  const PdqResult a = pdq_rgb(big.data(), w, h);
  EXPECT_LE(hamming_distance(a.hash, pdq_rgb(half.data(), w / 2, h / 2).hash), kPdqNearDuplicate);
  EXPECT_GT(hamming_distance(a.hash, pdq_rgb(mirror.data(), w, h).hash), kPdqNearDuplicate);
}

}  // namespace
}  // namespace strata::analyze
