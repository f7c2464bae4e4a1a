#include "extract/image_info.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <vector>

#include "extract/data_uri.hpp"
#include "core/digest.hpp"
#include "extract/mime_sniff.hpp"
#include "image_test_bytes.hpp"
#include "testing/shared_data.hpp"

namespace strata::extract {
namespace {

using namespace testbytes;

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

ImageInfo info_of(std::string_view bytes) {
  auto info = read_image_info(bytes);
  EXPECT_TRUE(info.has_value());
  return info.value_or(ImageInfo{});
}

// ---- real files: dimensions as reported by file(1) ----

struct RealJpeg {
  const char* name;
  int width, height;
};

TEST(ImageInfoReal, CatJpegs) {
  STRATA_REQUIRE_SHARED();
  const RealJpeg cases[] = {
      {"cat_01_original.jpg", 1245, 934},        {"cat_02_downscaled.jpg", 311, 233},
      {"cat_03_grayscale.jpg", 1245, 934},       {"cat_04_rotated45.jpg", 1541, 1542},
      {"cat_05_rotated90.jpg", 934, 1245},       {"cat_06_rotated180.jpg", 1245, 934},
      {"cat_07_mirrored.jpg", 1245, 934},        {"cat_08_noise.jpg", 1245, 934},
      {"cat_09_text_opaque.jpg", 1245, 934},     {"cat_10_text_overlay.jpg", 1245, 934},
      {"cat_11_jpeg_lowquality.jpg", 1245, 934}, {"cat_12_cropped.jpg", 873, 654},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    std::string bytes = read_file(
        testing::peer_tests("netarchivesuite__image-hashes/src/test/resources/test_images") /
        c.name);
    ASSERT_FALSE(bytes.empty());
    EXPECT_EQ(sniff_image_mime(bytes), "image/jpeg");
    ImageInfo info = info_of(bytes);
    EXPECT_EQ(info.mime, "image/jpeg");
    EXPECT_EQ(info.width, c.width);
    EXPECT_EQ(info.height, c.height);
    EXPECT_EQ(info.display_width, c.width);
    EXPECT_TRUE(info.size_known);
    EXPECT_FALSE(info.progressive);  // file(1): baseline
    EXPECT_EQ(info.orientation, 0);  // no EXIF segment
    EXPECT_TRUE(passes_size_gates(info));
  }
}

TEST(ImageInfoReal, DigestsOfRealFile) {
  STRATA_REQUIRE_SHARED();
  std::string bytes = read_file(
      testing::peer_tests("netarchivesuite__image-hashes/src/test/resources/test_images") /
      "cat_01_original.jpg");
  ASSERT_EQ(bytes.size(), 253304u);
  EXPECT_EQ(sha256_hex(bytes), "742b47bb201a645fc49e92655b77458448502ddbe0e43ac1c8bafb5c585c3009");
  EXPECT_EQ(sha1_base32(bytes), "KAJIPSPKHL747EYVFJQOXJGFA4FT3LNN");
  Hasher streamed(DigestAlgorithm::kSha256);
  for (size_t pos = 0; pos < bytes.size(); pos += 4093)
    streamed.update(std::string_view(bytes).substr(pos, 4093));
  EXPECT_EQ(streamed.finish_hex(), sha256_hex(bytes));
}

TEST(ImageInfoReal, EveryPrefixOfARealJpegIsSafe) {
  STRATA_REQUIRE_SHARED();
  std::string bytes = read_file(
      testing::peer_tests("netarchivesuite__image-hashes/src/test/resources/test_images") /
      "cat_02_downscaled.jpg");
  for (size_t n = 0; n < 700 && n < bytes.size(); ++n) (void)read_image_info(bytes.substr(0, n));
  EXPECT_EQ(info_of(bytes.substr(0, 700)).width, 311);  // SOF lies in the first 700 bytes
}

// ---- JPEG ----

TEST(ImageInfoJpeg, ProgressiveCmykWithExifRotation) {
  std::string bytes = jpeg(0xC2, 300, 200, 4, 6);
  EXPECT_EQ(sniff_image_mime(bytes), "image/jpeg");
  ImageInfo info = info_of(bytes);
  EXPECT_EQ(info.width, 300);
  EXPECT_EQ(info.height, 200);
  EXPECT_TRUE(info.progressive);
  EXPECT_EQ(info.orientation, 6);
  EXPECT_EQ(info.display_width, 200);
  EXPECT_EQ(info.display_height, 300);
  EXPECT_FALSE(info.animated);
}

TEST(ImageInfoJpeg, OrientationsBelowFiveKeepDisplaySize) {
  ImageInfo info = info_of(jpeg(0xC0, 640, 480, 3, 3));
  EXPECT_EQ(info.orientation, 3);
  EXPECT_EQ(info.display_width, 640);
  EXPECT_FALSE(info.progressive);
}

TEST(ImageInfoJpeg, OtherFrameTypesAndMissingFrame) {
  EXPECT_EQ(info_of(jpeg(0xC1, 10, 20)).height, 20);     // extended sequential
  EXPECT_TRUE(info_of(jpeg(0xCA, 10, 20)).progressive);  // arithmetic progressive
  ImageInfo none = info_of("\xff\xd8\xff\xd9");
  EXPECT_EQ(none.mime, "image/jpeg");
  EXPECT_FALSE(none.size_known);
  EXPECT_FALSE(passes_size_gates(none, SizeGates{.allow_unknown_size = false}));
}

// ---- PNG / APNG ----

TEST(ImageInfoPng, PlainInterlacedAndAnimated) {
  ImageInfo plain = info_of(png(800, 600));
  EXPECT_EQ(plain.mime, "image/png");
  EXPECT_EQ(plain.width, 800);
  EXPECT_EQ(plain.height, 600);
  EXPECT_FALSE(plain.progressive);
  EXPECT_TRUE(info_of(png(64, 64, true)).progressive);
  std::string apng = png(120, 90, false, 12);
  EXPECT_EQ(sniff_image_mime(apng), "image/apng");
  ImageInfo animated = info_of(apng);
  EXPECT_EQ(animated.mime, "image/apng");
  EXPECT_TRUE(animated.animated);
  EXPECT_EQ(animated.frames, 12);
  EXPECT_EQ(animated.width, 120);
}

// ---- GIF ----

TEST(ImageInfoGif, FramesAreCounted) {
  ImageInfo still = info_of(gif(100, 60, 1));
  EXPECT_EQ(still.mime, "image/gif");
  EXPECT_EQ(still.width, 100);
  EXPECT_EQ(still.height, 60);
  EXPECT_EQ(still.frames, 1);
  EXPECT_FALSE(still.animated);
  ImageInfo anim = info_of(gif(100, 60, 5, true));
  EXPECT_EQ(anim.frames, 5);
  EXPECT_TRUE(anim.animated);
  EXPECT_TRUE(anim.progressive);
}

// ---- WebP ----

TEST(ImageInfoWebp, LossyLosslessAndAnimated) {
  std::string vp8("\x30\x01\x00\x9d\x01\x2a", 6);
  le16(vp8, 400 | (1 << 14));  // scale bits must be masked off
  le16(vp8, 300);
  ImageInfo lossy = info_of(riff_webp(riff_chunk("VP8 ", vp8)));
  EXPECT_EQ(lossy.mime, "image/webp");
  EXPECT_EQ(lossy.width, 400);
  EXPECT_EQ(lossy.height, 300);

  std::string vp8l("\x2f", 1);
  le32(vp8l, (1023 - 1) | ((77 - 1) << 14));
  ImageInfo lossless = info_of(riff_webp(riff_chunk("VP8L", vp8l)));
  EXPECT_EQ(lossless.width, 1023);
  EXPECT_EQ(lossless.height, 77);

  std::string vp8x("\x12\0\0\0", 4);  // animation + alpha
  le24(vp8x, 640 - 1);
  le24(vp8x, 480 - 1);
  std::string chunks = riff_chunk("VP8X", vp8x) + riff_chunk("ANIM", std::string(6, '\0'));
  for (int i = 0; i < 3; ++i) chunks += riff_chunk("ANMF", std::string(17, '\0'));
  std::string animated_bytes = riff_webp(chunks);
  EXPECT_EQ(sniff_image_mime(animated_bytes), "image/webp");
  ImageInfo animated = info_of(animated_bytes);
  EXPECT_EQ(animated.width, 640);
  EXPECT_EQ(animated.height, 480);
  EXPECT_TRUE(animated.animated);
  EXPECT_EQ(animated.frames, 3);
}

// ---- BMP ----

std::string bmp(int32_t w, int32_t h) {
  std::string s("BM");
  le32(s, 54);
  le32(s, 0);
  le32(s, 54);
  le32(s, 40);
  le32(s, static_cast<uint32_t>(w));
  le32(s, static_cast<uint32_t>(h));
  le16(s, 1);
  le16(s, 24);
  s += std::string(24, '\0');
  return s;
}

TEST(ImageInfoBmp, BottomUpAndTopDown) {
  EXPECT_EQ(sniff_image_mime(bmp(320, 240)), "image/bmp");
  ImageInfo bottom_up = info_of(bmp(320, 240));
  EXPECT_EQ(bottom_up.width, 320);
  EXPECT_EQ(bottom_up.height, 240);
  ImageInfo top_down = info_of(bmp(320, -240));
  EXPECT_EQ(top_down.height, 240);
  EXPECT_EQ(sniff_image_mime("BM this is text"), "");
}

// ---- ICO / CUR ----

std::string ico_entry(uint8_t w, uint8_t h, uint32_t size, uint32_t offset) {
  std::string e{static_cast<char>(w), static_cast<char>(h), 0, 0};
  le16(e, 1);
  le16(e, 32);
  le32(e, size);
  le32(e, offset);
  return e;
}

TEST(ImageInfoIco, LargestEntryZeroMeans256AndEmbeddedPng) {
  std::string ico("\0\0\1\0\2\0", 6);
  ico += ico_entry(16, 16, 0, 0) + ico_entry(0, 0, 0, 0);
  EXPECT_EQ(sniff_image_mime(ico), "image/x-icon");
  ImageInfo info = info_of(ico);
  EXPECT_EQ(info.mime, "image/x-icon");
  EXPECT_EQ(info.width, 256);
  EXPECT_EQ(info.height, 256);

  std::string embedded = png(512, 512);
  std::string with_png("\0\0\1\0\1\0", 6);
  with_png += ico_entry(0, 0, static_cast<uint32_t>(embedded.size()), 22) + embedded;
  EXPECT_EQ(info_of(with_png).width, 512);

  std::string cur("\0\0\2\0\1\0", 6);
  cur += ico_entry(32, 48, 0, 0);
  EXPECT_EQ(info_of(cur).height, 48);
}

// ---- TIFF ----

std::string tiff(bool big_endian, uint16_t width_type) {
  auto put16 = [&](std::string& s, uint32_t v) { big_endian ? be16(s, v) : le16(s, v); };
  auto put32 = [&](std::string& s, uint32_t v) { big_endian ? be32(s, v) : le32(s, v); };
  std::string s = big_endian ? std::string("MM\0*", 4) : std::string("II*\0", 4);
  put32(s, 8);
  put16(s, 3);
  auto entry = [&](uint16_t tag, uint16_t type, uint32_t value) {
    put16(s, tag);
    put16(s, type);
    put32(s, 1);
    if (type == 3) {
      put16(s, value);
      put16(s, 0);
    } else {
      put32(s, value);
    }
  };
  entry(256, width_type, 2000);
  entry(257, 4, 1500);
  entry(274, 3, 8);
  put32(s, 0);
  return s;
}

TEST(ImageInfoTiff, BothByteOrdersShortAndLong) {
  for (bool big : {false, true}) {
    for (uint16_t type : {uint16_t{3}, uint16_t{4}}) {
      std::string bytes = tiff(big, type);
      EXPECT_EQ(sniff_image_mime(bytes), "image/tiff");
      ImageInfo info = info_of(bytes);
      EXPECT_EQ(info.width, 2000);
      EXPECT_EQ(info.height, 1500);
      EXPECT_EQ(info.orientation, 8);
      EXPECT_EQ(info.display_width, 1500);
    }
  }
}

// ---- SVG ----

TEST(ImageInfoSvg, SniffingThroughPrologAndSizes) {
  std::string prolog =
      "\xEF\xBB\xBF  <?xml version=\"1.0\"?>\n<!-- made by hand -->\n"
      "<!DOCTYPE svg PUBLIC \"-//W3C//DTD SVG 1.1//EN\" \"x.dtd\" [ <!ENTITY a \"b>\"> ]>\n";
  std::string svg =
      prolog + "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"120px\" height='80'>";
  EXPECT_EQ(sniff_image_mime(svg), "image/svg+xml");
  ImageInfo info = info_of(svg);
  EXPECT_EQ(info.mime, "image/svg+xml");
  EXPECT_EQ(info.width, 120);
  EXPECT_EQ(info.height, 80);

  ImageInfo from_view_box = info_of("<svg viewBox=\"0 0 300.4,150\"></svg>");
  EXPECT_EQ(from_view_box.width, 300);
  EXPECT_EQ(from_view_box.height, 150);
  ImageInfo scaled = info_of("<svg:svg width=\"600\" viewBox=\"0 0 300 150\"/>");
  EXPECT_EQ(scaled.height, 300);
  ImageInfo points = info_of("<svg width=\"72pt\" height=\"1in\"/>");
  EXPECT_EQ(points.width, 96);
  EXPECT_EQ(points.height, 96);

  ImageInfo percent = info_of("<svg width=\"100%\" height=\"100%\" viewBox=\"0 0 10 10\">");
  EXPECT_EQ(percent.mime, "image/svg+xml");
  EXPECT_FALSE(percent.size_known);
  EXPECT_EQ(check_size_gates(percent), SizeVerdict::kUnknownSize);
  EXPECT_TRUE(passes_size_gates(percent));

  EXPECT_EQ(sniff_image_mime("<html><svg width=\"10\"></svg></html>"), "");
  EXPECT_EQ(sniff_image_mime("<svgfoo>"), "");
  EXPECT_EQ(sniff_image_mime("hello <svg>"), "");
}

// ---- AVIF / HEIF ----

TEST(ImageInfoHeif, AvifLargestIspeAndRotation) {
  std::string irot = isobmff_box("irot", std::string(1, '\x01'));
  std::string avif =
      heif("avif", {"avif", "mif1", "miaf"}, ispe(320, 180) + ispe(1920, 1080) + irot);
  EXPECT_EQ(sniff_image_mime(avif), "image/avif");
  ImageInfo info = info_of(avif);
  EXPECT_EQ(info.mime, "image/avif");
  EXPECT_EQ(info.width, 1920);
  EXPECT_EQ(info.height, 1080);
  EXPECT_EQ(info.orientation, 8);  // 90 degrees anticlockwise
  EXPECT_EQ(info.display_width, 1080);

  std::string heic = heif("heic", {"mif1", "heic"}, ispe(4032, 3024));
  EXPECT_EQ(sniff_image_mime(heic), "image/heic");
  EXPECT_EQ(info_of(heic).width, 4032);
  EXPECT_EQ(sniff_image_mime(heif("mif1", {"mif1"}, "")), "image/heif");
  EXPECT_EQ(sniff_image_mime(heif("isom", {"mp41"}, "")), "");  // MP4 video
  EXPECT_TRUE(info_of(heif("avis", {"avis"}, ispe(64, 64))).animated);
}

// ---- gates, unknown, malformed ----

TEST(ImageInfoGates, Defaults) {
  ImageInfo info;
  info.size_known = true;
  info.width = 50;
  info.height = 50;
  EXPECT_EQ(check_size_gates(info), SizeVerdict::kOk);
  info.height = 49;
  EXPECT_EQ(check_size_gates(info), SizeVerdict::kTooSmall);
  info.width = info.height = 15000;
  EXPECT_EQ(check_size_gates(info), SizeVerdict::kOk);
  info.width = 15001;
  EXPECT_EQ(check_size_gates(info), SizeVerdict::kTooLarge);
  EXPECT_FALSE(passes_size_gates(info));
}

TEST(ImageInfoMalformed, UnknownAndTruncatedInputs) {
  EXPECT_FALSE(read_image_info("").has_value());
  EXPECT_FALSE(read_image_info("<!DOCTYPE html><html>").has_value());
  EXPECT_EQ(sniff_image_mime("GIF8"), "");
  std::vector<std::string> samples = {png(800, 600, false, 3),
                                      gif(10, 10, 3),
                                      jpeg(0xC2, 30, 20, 4, 6),
                                      bmp(3, -3),
                                      tiff(true, 4),
                                      heif("avif", {"avif"}, ispe(5, 5)),
                                      "<svg width='1' height='2' viewBox='0 0 1 2'>"};
  for (const std::string& sample : samples)
    for (size_t n = 0; n <= sample.size(); ++n) (void)read_image_info(sample.substr(0, n));
  SUCCEED();
}

TEST(MimeSniff, CanonicalAliases) {
  EXPECT_EQ(canonical_image_mime("IMAGE/JPG; charset=binary"), "image/jpeg");
  EXPECT_EQ(canonical_image_mime("image/vnd.microsoft.icon"), "image/x-icon");
  EXPECT_EQ(canonical_image_mime(" image/x-ms-bmp "), "image/bmp");
  EXPECT_EQ(canonical_image_mime("image/png"), "image/png");
}

// ---- data: URIs ----

TEST(DataUri, Base64WithWhitespaceAndPercentForm) {
  auto uri = parse_data_uri(
      "data:image/gif;base64,R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw\n==");
  ASSERT_TRUE(uri.has_value());
  EXPECT_EQ(uri->mime, "image/gif");
  EXPECT_TRUE(uri->base64);
  EXPECT_EQ(uri->bytes.size(), 43u);
  ImageInfo info = info_of(uri->bytes);
  EXPECT_EQ(info.width, 1);
  EXPECT_FALSE(passes_size_gates(info));

  auto svg =
      parse_data_uri("data:image/svg+xml;charset=utf-8,%3Csvg%20width='64'%20height='64'/%3E");
  ASSERT_TRUE(svg.has_value());
  EXPECT_FALSE(svg->base64);
  EXPECT_EQ(svg->bytes, "<svg width='64' height='64'/>");
  EXPECT_EQ(info_of(svg->bytes).width, 64);

  auto plain = parse_data_uri("DATA:,hello");
  ASSERT_TRUE(plain.has_value());
  EXPECT_EQ(plain->mime, "text/plain");
  EXPECT_FALSE(parse_data_uri("data:image/png;base64,@@@").has_value());
  EXPECT_FALSE(parse_data_uri("http://x/y.png").has_value());
  EXPECT_FALSE(parse_data_uri("data:image/png;base64,AAAAAAAA", DataUriLimits{.max_bytes = 5}));
}

TEST(Digest, KnownVectors) {
  EXPECT_EQ(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(md5_hex("abc"), "900150983cd24fb0d6963f7d28e17f72");
  EXPECT_EQ(md5_hex(""), "d41d8cd98f00b204e9800998ecf8427e");
  EXPECT_EQ(sha1_base32("abc"), "VGMT4NSHA2AWVOR6EVYXQUGCNSONBWE5");
  Hasher hasher(DigestAlgorithm::kSha1);
  hasher.update("a");
  hasher.update("bc");
  EXPECT_EQ(hasher.finish_base32(), "VGMT4NSHA2AWVOR6EVYXQUGCNSONBWE5");
  hasher.update("abc");  // reusable after finish
  EXPECT_EQ(hasher.finish_base32(), "VGMT4NSHA2AWVOR6EVYXQUGCNSONBWE5");
}

}  // namespace
}  // namespace strata::extract
