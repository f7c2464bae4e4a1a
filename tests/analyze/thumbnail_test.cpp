#include "analyze/thumbnail.hpp"

#include <gtest/gtest.h>

#include <map>

#include "analyze/thumbnail_store.hpp"
#include "archive_images.hpp"
#include "test_util.hpp"

namespace strata::analyze {
namespace {

void expect_fits(const Thumbnail& t, const std::string& what) {
  EXPECT_FALSE(t.webp.empty()) << what;
  EXPECT_EQ(t.webp.substr(8, 4), "WEBP") << what;
  EXPECT_LE(t.width, 200) << what;
  EXPECT_LE(t.height, 200) << what;
  EXPECT_GT(t.width, 0) << what;
  ASSERT_FALSE(t.sample_frames.empty()) << what;
  EXPECT_EQ(t.sample_frames[0].rgb.size(), size_t(t.width) * t.height * 3) << what;
}

// Every image payload of three real archives (GIF, JPEG, PNG, SVG, ICO captured by
// Heritrix, Webrecorder and Browsertrix) gets a thumbnail, per libvips loader.
TEST(Thumbnail, RealArchiveImagesOfEveryFormat) {
  STRATA_REQUIRE_SHARED();
  std::map<std::string, int> ok, failed;
  for (const char* archive :
       {"archives/webrecorder__replayweb.page/mkdocs/site/docs/examples/netpreserve-twitter.warc",
        "archives/openzim__warc2zim/tests/data/solidaritenum.warc.gz",
        "archives/webrecorder__py-wacz/tests/fixtures/example-iana.warc",
        "archives/archivesunleashed__aut/src/test/resources/warc/example.warc.gz"}) {
    for (const auto& image : test::archive_images(archive)) {
      if (!image.mime.starts_with("image/")) continue;  // HTML/RSS that a loader also sniffs
      Thumbnail t;
      const DecodeStatus s = make_thumbnail(image.bytes, {}, t);
      (s == DecodeStatus::ok ? ok : failed)[image.loader]++;
      if (s == DecodeStatus::ok)
        expect_fits(t, image.url);
      else
        std::cout << "  thumbnail failed: " << image.url << " (" << image.loader
                  << "): " << to_string(s) << "\n";
    }
  }
  for (const auto& [loader, n] : ok) std::cout << "  thumbnail ok: " << loader << " x" << n << "\n";
  // Only the two SVG icon fonts (Genericons.svg, Noticons.svg: glyphs, no canvas) fail.
  EXPECT_EQ(failed["VipsForeignLoadSvgBuffer"], 2);
  EXPECT_EQ(failed.size(), 1u);
  EXPECT_GE(ok["VipsForeignLoadJpegBuffer"], 20);
  EXPECT_GE(ok["VipsForeignLoadPngBuffer"], 30);
  EXPECT_GE(ok["VipsForeignLoadNsgifBuffer"], 30);
  EXPECT_GE(ok["VipsForeignLoadSvgBuffer"], 20);
  EXPECT_GE(ok["VipsForeignLoadMagickBuffer"], 1);  // the .ico favicon, through ImageMagick
}

TEST(Thumbnail, FitsInsideBoxKeepingAspect) {
  STRATA_REQUIRE_SHARED();
  const std::string bytes = test::read_file(test::cat_image("cat_01_original.jpg"));
  Thumbnail t;
  ASSERT_EQ(make_thumbnail(bytes, {}, t), DecodeStatus::ok);
  ASSERT_GT(t.source.width, 200);
  const double source_ratio = double(t.source.width) / t.source.height;
  EXPECT_EQ(std::max(t.width, t.height), 200);
  EXPECT_NEAR(double(t.width) / t.height, source_ratio, 0.02);
  EXPECT_LT(t.webp.size(), 20000u);
}

// The high-density thumbnail: twice the size, same aspect, only from images larger than the
// thumbnail (a smaller one's thumbnail already has all its pixels), and none when switched off.
TEST(Thumbnail, HighDensityThumbnailOfLargerImagesOnly) {
  STRATA_REQUIRE_SHARED();
  const std::string bytes = test::read_file(test::cat_image("cat_01_original.jpg"));
  Thumbnail t;
  ASSERT_EQ(make_thumbnail(bytes, {}, t), DecodeStatus::ok);
  ASSERT_GT(std::max(t.source.width, t.source.height), 400);
  EXPECT_EQ(t.webp_retina.substr(8, 4), "WEBP");
  EXPECT_EQ(std::max(t.retina_width, t.retina_height), 400);
  EXPECT_NEAR(double(t.retina_width) / t.retina_height, double(t.width) / t.height, 0.02);
  EXPECT_GT(t.webp_retina.size(), t.webp.size());
  ThumbnailOptions off;
  off.retina_side = 0;
  ASSERT_EQ(make_thumbnail(bytes, off, t), DecodeStatus::ok);
  EXPECT_TRUE(t.webp_retina.empty());
  // An image no larger than the thumbnail (a 160-pixel one) gets no second one.
  ThumbnailOptions small;
  small.max_side = 160;
  small.retina_side = 0;
  ASSERT_EQ(make_thumbnail(bytes, small, t), DecodeStatus::ok);
  Thumbnail tiny;
  ASSERT_EQ(make_thumbnail(t.webp, {}, tiny), DecodeStatus::ok);
  EXPECT_EQ(std::max(tiny.width, tiny.height), 160);
  EXPECT_TRUE(tiny.webp_retina.empty());
}

// Formats the archives lack, derived from the cat photo: each decodes to a thumbnail.
TEST(Thumbnail, CmykProgressive16BitAlphaAndAnimations) {
  STRATA_REQUIRE_SHARED();
  for (const auto& [name, bytes] : test::derived_cat_variants()) {
    ASSERT_FALSE(bytes.empty()) << name;
    Thumbnail t;
    ASSERT_EQ(make_thumbnail(bytes, {}, t), DecodeStatus::ok) << name;
    expect_fits(t, name);
    if (name.starts_with("animated")) {
      EXPECT_EQ(t.source.frames, 3) << name;
      EXPECT_EQ(t.frames, 3) << name;  // animated WebP thumbnail
      ASSERT_EQ(t.sample_frames.size(), 3u) << name;
      // The second frame is the negative: its mean differs a lot from the first.
      long sum0 = 0, sum1 = 0;
      for (uint8_t v : t.sample_frames[0].rgb) sum0 += v;
      for (uint8_t v : t.sample_frames[1].rgb) sum1 += v;
      EXPECT_GT(std::abs(sum0 - sum1), long(t.sample_frames[0].rgb.size()) * 20) << name;
    }
    if (name == "cmyk.jpg") {
      // CMYK converted to sRGB, not shown inverted: close to the RGB thumbnail's mean.
      Thumbnail rgb;
      ASSERT_EQ(make_thumbnail(test::read_file(test::cat_image("cat_01_original.jpg")), {}, rgb),
                DecodeStatus::ok);
      double m0 = 0, m1 = 0;
      for (uint8_t v : t.sample_frames[0].rgb) m0 += v;
      for (uint8_t v : rgb.sample_frames[0].rgb) m1 += v;
      EXPECT_NEAR(m0 / t.sample_frames[0].rgb.size(), m1 / rgb.sample_frames[0].rgb.size(), 20.0);
    }
  }
}

// Arquivo issue #781's 14174x20552 image: refused from its header, before decoding.
TEST(Thumbnail, DecompressionBombRefusedFromHeader) {
  STRATA_REQUIRE_SHARED();
  const std::string bomb = test::png_declaring(14174, 20552);
  ImageHeader header;
  DecodeLimits limits;
  limits.max_pixels = 100'000'000;
  ASSERT_EQ(probe_image(bomb, limits, header), DecodeStatus::too_large);
  EXPECT_EQ(header.width, 14174);
  EXPECT_EQ(header.height, 20552);
  ThumbnailOptions options;
  options.limits = limits;
  Thumbnail t;
  EXPECT_EQ(make_thumbnail(bomb, options, t), DecodeStatus::too_large);
  EXPECT_TRUE(t.webp.empty());
  // Arquivo's default limit (15000x15000 px) refuses it too.
  EXPECT_EQ(make_thumbnail(bomb, {}, t), DecodeStatus::too_large);
  // Under the limit, a header that promises pixels the file lacks: decoded as far as it
  // goes (libvips fills the rest) or a counted failure, never a crash.
  EXPECT_NE(make_thumbnail(test::png_declaring(4000, 3000), {}, t), DecodeStatus::too_large);
}

TEST(Thumbnail, GarbageAndTruncatedInputFailCleanly) {
  STRATA_REQUIRE_SHARED();
  Thumbnail t;
  EXPECT_EQ(make_thumbnail("", {}, t), DecodeStatus::unsupported);
  EXPECT_EQ(make_thumbnail("<html>not an image</html>", {}, t), DecodeStatus::unsupported);
  const std::string jpeg = test::read_file(test::cat_image("cat_01_original.jpg"));
  EXPECT_NE(make_thumbnail(jpeg.substr(0, 40), {}, t), DecodeStatus::ok);
  // A JPEG cut in half still gives a (partly grey) thumbnail, as browsers show it.
  const DecodeStatus half = make_thumbnail(jpeg.substr(0, jpeg.size() / 2), {}, t);
  EXPECT_TRUE(half == DecodeStatus::ok || half == DecodeStatus::corrupt);
}

TEST(ThumbnailStore, ShardedAtomicRoundTrip) {
  const auto root = strata::testing::scratch_dir();
  ThumbnailStore store(root / "thumbs");
  const std::string digest(64, 'a');
  EXPECT_FALSE(store.contains(digest));
  ASSERT_TRUE(store.put(digest, "RIFF....WEBP"));
  EXPECT_TRUE(store.contains(digest));
  EXPECT_EQ(store.path_for(digest), root / "thumbs/aa/aa" / (digest + ".webp"));
  EXPECT_EQ(store.get(digest), "RIFF....WEBP");
  ASSERT_TRUE(store.put(digest, "second"));
  EXPECT_EQ(store.get(digest), "second");
  EXPECT_FALSE(store.put("../../etc/passwd", "x"));
  EXPECT_FALSE(store.put(std::string(64, 'G'), "x"));
  size_t files = 0;
  for (const auto& e : std::filesystem::recursive_directory_iterator(root))
    files += e.is_regular_file();
  EXPECT_EQ(files, 1u);  // no temporary files left behind
}

}  // namespace
}  // namespace strata::analyze
