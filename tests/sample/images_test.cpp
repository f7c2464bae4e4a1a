// Generated images are real files: they decode and have the declared dimensions.
#include <gif_lib.h>
#include <gtest/gtest.h>
#include <png.h>
#include <webp/decode.h>

#include <cstdio>

#include <jpeglib.h>

#include "core/digest.hpp"
#include "sample/assets.hpp"
#include "sample/encode.hpp"

namespace strata::sample {
namespace {

std::pair<int, int> png_size(const std::string& b) {
  png_image img{};
  img.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_memory(&img, b.data(), b.size())) return {-1, -1};
  png_image_free(&img);
  return {static_cast<int>(img.width), static_cast<int>(img.height)};
}

std::vector<uint8_t> png_rgb(const std::string& b) {
  png_image img{};
  img.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_memory(&img, b.data(), b.size())) return {};
  img.format = PNG_FORMAT_RGB;
  std::vector<uint8_t> pixels(PNG_IMAGE_SIZE(img));
  if (!png_image_finish_read(&img, nullptr, pixels.data(), 0, nullptr)) return {};
  return pixels;
}

std::pair<int, int> jpeg_size(const std::string& b) {
  jpeg_decompress_struct c;
  jpeg_error_mgr e;
  c.err = jpeg_std_error(&e);
  jpeg_create_decompress(&c);
  jpeg_mem_src(&c, reinterpret_cast<const unsigned char*>(b.data()), b.size());
  jpeg_read_header(&c, TRUE);
  jpeg_start_decompress(&c);
  std::vector<unsigned char> row(c.output_width * c.output_components);
  while (c.output_scanline < c.output_height) {
    JSAMPROW r = row.data();
    jpeg_read_scanlines(&c, &r, 1);
  }
  std::pair<int, int> size{static_cast<int>(c.output_width), static_cast<int>(c.output_height)};
  jpeg_finish_decompress(&c);
  jpeg_destroy_decompress(&c);
  return size;
}

struct Reader {
  const std::string* bytes;
  size_t pos = 0;
};

int gif_read(GifFileType* gif, GifByteType* out, int n) {
  auto* r = static_cast<Reader*>(gif->UserData);
  size_t k = std::min(static_cast<size_t>(n), r->bytes->size() - r->pos);
  std::copy_n(r->bytes->data() + r->pos, k, out);
  r->pos += k;
  return static_cast<int>(k);
}

std::tuple<int, int, int> gif_info(const std::string& b) {
  Reader r{&b};
  int err = 0;
  GifFileType* gif = DGifOpen(&r, gif_read, &err);
  if (!gif || DGifSlurp(gif) != GIF_OK) return {-1, -1, 0};
  std::tuple<int, int, int> info{gif->SWidth, gif->SHeight, gif->ImageCount};
  DGifCloseFile(gif, &err);
  return info;
}

const Concept kConcept = make_concept(42);

TEST(SampleImages, PngDecodesWithDeclaredSize) {
  auto img = make_image(kConcept, 123, 77, ImageFormat::png);
  EXPECT_EQ(img.mime, "image/png");
  EXPECT_EQ(png_size(img.bytes), std::make_pair(123, 77));
}

TEST(SampleImages, PngWithUpFilterHoldsTheSamePixels) {
  Canvas c = render(kConcept, 160, 90);
  std::string adaptive = encode_png(c), up = encode_png(c, PngFilters::up);
  EXPECT_NE(adaptive, up);
  EXPECT_EQ(png_rgb(up), c.pixels);
  EXPECT_EQ(png_rgb(adaptive), c.pixels);
}

TEST(SampleImages, JpegDecodesWithDeclaredSize) {
  auto img = make_image(kConcept, 640, 480, ImageFormat::jpeg, 80);
  EXPECT_EQ(jpeg_size(img.bytes), std::make_pair(640, 480));
  // A marker changes the digest, not the picture.
  std::string marked = add_marker(img.bytes, ImageFormat::jpeg, "variant 1");
  EXPECT_NE(sha256_hex(marked), sha256_hex(img.bytes));
  EXPECT_EQ(jpeg_size(marked), std::make_pair(640, 480));
}

TEST(SampleImages, GifStaticAndAnimated) {
  auto still = make_image(kConcept, 90, 60, ImageFormat::gif);
  EXPECT_EQ(gif_info(still.bytes), std::make_tuple(90, 60, 1));
  auto anim = make_image(kConcept, 120, 60, ImageFormat::gif_animated);
  EXPECT_EQ(gif_info(anim.bytes), std::make_tuple(120, 60, 3));
  EXPECT_EQ(gif_info(add_marker(anim.bytes, ImageFormat::gif, "x")), std::make_tuple(120, 60, 3));
}

TEST(SampleImages, WebpDecodesWithDeclaredSize) {
  auto img = make_image(kConcept, 300, 200, ImageFormat::webp, 75);
  int w = 0, h = 0;
  ASSERT_TRUE(
      WebPGetInfo(reinterpret_cast<const uint8_t*>(img.bytes.data()), img.bytes.size(), &w, &h));
  EXPECT_EQ(w, 300);
  EXPECT_EQ(h, 200);
}

TEST(SampleImages, IcoHoldsAPngOfTheSize) {
  auto img = make_image(kConcept, 64, 64, ImageFormat::ico);
  ASSERT_GT(img.bytes.size(), 22u);
  EXPECT_EQ(img.bytes.substr(0, 4), std::string("\0\0\1\0", 4));
  EXPECT_EQ(png_size(img.bytes.substr(22)), std::make_pair(64, 64));
  EXPECT_EQ(static_cast<unsigned char>(img.bytes[6]), 64);
}

TEST(SampleImages, SvgDeclaresItsSize) {
  auto img = make_image(kConcept, 200, 80, ImageFormat::svg);
  EXPECT_NE(img.bytes.find("width=\"200\" height=\"80\""), std::string::npos);
}

TEST(SampleImages, MarkedPngStillDecodes) {
  auto img = make_image(kConcept, 60, 60, ImageFormat::png);
  EXPECT_EQ(png_size(add_marker(img.bytes, ImageFormat::png, "variant 7")), std::make_pair(60, 60));
}

TEST(SampleImages, SameConceptSameBytes) {
  EXPECT_EQ(make_image(make_concept(5), 100, 100, ImageFormat::jpeg).bytes,
            make_image(make_concept(5), 100, 100, ImageFormat::jpeg).bytes);
  EXPECT_NE(make_image(make_concept(5), 100, 100, ImageFormat::jpeg).bytes,
            make_image(make_concept(6), 100, 100, ImageFormat::jpeg).bytes);
}

}  // namespace
}  // namespace strata::sample
