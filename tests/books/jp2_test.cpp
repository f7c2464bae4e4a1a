// JPEG 2000 region decoding on the four real Internet Archive page scans in ../shared:
// a region (and the same region in strips) is bit-identical to a full decode then crop.
#include <gtest/gtest.h>

#include "books/jp2.hpp"
#include "books/jpeg.hpp"
#include "testing/containers.hpp"
#include "testing/shared_data.hpp"

namespace strata::books {
namespace {

const std::string kPages = "books/internetarchive__archive-pdf-tools/tests/files/";

std::string page(const std::string& name) {
  return testing::read_file(testing::shared_data(kPages + name));
}

// Regions at the origin, at odd offsets inside, and at the bottom-right corner.
std::vector<Box> regions(int w, int h) {
  return {
      {0, 0, 301, 257}, {w / 3 + 1, h / 2 + 3, w / 3 + 640, h / 2 + 515}, {w - 333, h - 211, w, h}};
}

void expect_regions_match_full_decode(const std::string& name, int width, int height,
                                      int channels) {
  const std::string data = page(name);
  const Jp2Info info = jp2_info(data);
  EXPECT_EQ(info.width, width);
  EXPECT_EQ(info.height, height);
  const Raster full = jp2_decode_full(data);
  ASSERT_EQ(full.width, width);
  ASSERT_EQ(full.channels, channels);
  for (const Box& box : regions(width, height)) {
    const Raster expected = crop(full, box);
    EXPECT_TRUE(jp2_decode_region(data, box) == expected)
        << name << " region " << box.l << "," << box.t;
    EXPECT_TRUE(jp2_decode_region(data, box, 100) == expected) << name << " in strips";
  }
}

TEST(Jp2, GreyPageRegionsAreBitIdenticalToFullDecode) {
  STRATA_REQUIRE_SHARED();
  expect_regions_match_full_decode(
      "sim_english-illustrated-magazine_1884-12_2_15/"
      "sim_english-illustrated-magazine_1884-12_2_15_0000.jp2",
      2414, 3560, 1);
}

TEST(Jp2, ColourPagesRegionsAreBitIdenticalToFullDecode) {
  STRATA_REQUIRE_SHARED();
  expect_regions_match_full_decode("lanjing-text-and-image/lanjingdeyanjing0000bing_0012.jp2", 2541,
                                   3875, 3);
  expect_regions_match_full_decode("rome-ceneri-art-text/cd_le-ceneri-di-heliodoro_rome_0001.jp2",
                                   3623, 2938, 3);
}

TEST(Jp2, LargePageStripsEqualOneRegion) {
  STRATA_REQUIRE_SHARED();
  // 6540 x 8565 (56 Mpx): no full decode here (~680 MB); strips against one region call.
  const std::string data =
      page("smallhouse-vague/SmallHousesEconomicDesignConstruction_FullRes_0015.jp2");
  const Jp2Info info = jp2_info(data);
  EXPECT_EQ(info.width, 6540);
  EXPECT_EQ(info.height, 8565);
  const Box box{2999, 4001, 3999, 4801};
  const Raster one = jp2_decode_region(data, box, 100000),
               strips = jp2_decode_region(data, box, 128);
  EXPECT_EQ(one.width, 1000);
  EXPECT_EQ(one.height, 800);
  EXPECT_EQ(one.channels, 3);
  EXPECT_TRUE(one == strips);
}

TEST(Jp2, TruncatedAndCorruptPagesThrow) {
  STRATA_REQUIRE_SHARED();
  const std::string data = page(
      "sim_english-illustrated-magazine_1884-12_2_15/"
      "sim_english-illustrated-magazine_1884-12_2_15_0000.jp2");
  EXPECT_THROW(jp2_decode_region(data.substr(0, data.size() / 2), {0, 3000, 100, 3100}), Jp2Error);
  EXPECT_THROW(jp2_decode_region(data.substr(0, 100), {0, 0, 10, 10}), Jp2Error);
  EXPECT_THROW(jp2_decode_region("garbage", {0, 0, 10, 10}), Jp2Error);
  EXPECT_THROW(jp2_decode_region(data, {2400, 0, 2415, 10}), Jp2Error);  // past the right edge
}

TEST(Jp2, LosslessRoundTrip) {
  Raster r{37, 21, 3, {}};
  for (int i = 0; i < 37 * 21 * 3; ++i) r.pixels.push_back(static_cast<uint8_t>(i * 7));
  const std::string jp2 = jp2_encode_lossless(r);
  EXPECT_TRUE(jp2_decode_full(jp2) == r);
  EXPECT_TRUE(jp2_decode_region(jp2, {3, 4, 30, 20}, 5) == crop(r, {3, 4, 30, 20}));
}

TEST(Jpeg, RegionEqualsFullDecodeThenCrop) {
  Raster r{64, 48, 3, {}};
  for (int i = 0; i < 64 * 48 * 3; ++i)
    r.pixels.push_back(static_cast<uint8_t>((i * 13) ^ (i / 97)));
  const std::string jpeg = jpeg_encode(r, 90);
  const Raster full = jpeg_decode_full(jpeg);
  EXPECT_EQ(jpeg_bounds(jpeg), (Box{0, 0, 64, 48}));
  EXPECT_TRUE(jpeg_decode_region(jpeg, {5, 9, 40, 47}) == crop(full, {5, 9, 40, 47}));
  EXPECT_THROW(jpeg_decode_region(jpeg.substr(0, jpeg.size() / 3), {0, 0, 64, 48}), JpegError);
  EXPECT_THROW(jpeg_decode_region(jpeg, {0, 0, 65, 48}), JpegError);
}

}  // namespace
}  // namespace strata::books
