#include "archive_images.hpp"

#include <vips/vips.h>
#include <zlib.h>

#include <gtest/gtest.h>

#include "analyze/image.hpp"
#include "analyze/vips_util.hpp"
#include "archive/reader.hpp"
#include "test_util.hpp"

namespace strata::analyze::test {

using detail::ImagePtr;

std::vector<ArchiveImage> archive_images(const std::string& shared_relative_path) {
  ensure_vips();
  std::vector<ArchiveImage> out;
  auto reader = archive::ArchiveReader::open(strata::testing::shared_data(shared_relative_path), {},
                                             [](const auto&...) {});
  while (reader->next()) {
    const auto& record = reader->record();
    if (record.type != archive::RecordType::response &&
        record.type != archive::RecordType::resource)
      continue;
    std::string payload;
    if (reader->read_payload(payload) != archive::PayloadStatus::ok || payload.empty()) continue;
    const char* loader = vips_foreign_find_load_buffer(payload.data(), payload.size());
    if (loader == nullptr) {
      vips_error_clear();
      continue;
    }
    const std::string name = loader;
    if (name.starts_with("csv") || name.starts_with("matrix") || name.starts_with("pdf")) continue;
    const std::string mime = record.http.present ? record.http.mime : record.content_type;
    out.push_back({record.target_uri, mime, name, std::move(payload), record.file, record.offset});
  }
  return out;
}

namespace {

std::string save(VipsImage* image, const char* suffix, bool& ok) {
  void* buffer = nullptr;
  size_t size = 0;
  ok = vips_image_write_to_buffer(image, suffix, &buffer, &size, nullptr) == 0;
  if (!ok) {
    ADD_FAILURE() << "libvips could not save " << suffix << ": " << vips_error_buffer();
    vips_error_clear();
    return {};
  }
  std::string bytes(static_cast<const char*>(buffer), size);
  g_free(buffer);
  return bytes;
}

ImagePtr small_cat() {
  const std::string bytes = read_file(cat_image("cat_01_original.jpg"));
  VipsImage* image = nullptr;
  vips_thumbnail_buffer(const_cast<char*>(bytes.data()), bytes.size(), &image, 320, nullptr);
  ImagePtr lazy(image);
  return ImagePtr(vips_image_copy_memory(lazy.get()));  // before `bytes` goes
}

// Three frames: the cat, its negative, the cat flipped; stacked as a libvips animation.
ImagePtr animation(VipsImage* cat) {
  VipsImage* negative = nullptr;
  VipsImage* negative8 = nullptr;
  VipsImage* flipped = nullptr;
  vips_invert(cat, &negative, nullptr);
  vips_cast_uchar(negative, &negative8, nullptr);
  vips_flip(cat, &flipped, VIPS_DIRECTION_VERTICAL, nullptr);
  VipsImage* frames[] = {cat, negative8, flipped};
  VipsImage* stacked = nullptr;
  vips_arrayjoin(frames, &stacked, 3, "across", 1, nullptr);
  g_object_unref(negative);
  g_object_unref(negative8);
  g_object_unref(flipped);
  VipsImage* copy = nullptr;
  vips_copy(stacked, &copy, nullptr);
  g_object_unref(stacked);
  vips_image_set_int(copy, "page-height", cat->Ysize);
  int delays[] = {100, 100, 100};
  vips_image_set_array_int(copy, "delay", delays, 3);
  return ImagePtr(copy);
}

}  // namespace

std::map<std::string, std::string> derived_cat_variants() {
  ensure_vips();
  std::map<std::string, std::string> out;
  ImagePtr cat = small_cat();
  bool ok = false;
  VipsImage* tmp = nullptr;
  vips_colourspace(cat.get(), &tmp, VIPS_INTERPRETATION_CMYK, nullptr);
  ImagePtr cmyk(tmp);
  out["cmyk.jpg"] = save(cmyk.get(), ".jpg", ok);
  out["progressive.jpg"] = save(cat.get(), ".jpg[interlace]", ok);
  vips_colourspace(cat.get(), &tmp, VIPS_INTERPRETATION_RGB16, nullptr);
  ImagePtr rgb16(tmp);
  out["rgb16.png"] = save(rgb16.get(), ".png", ok);
  vips_colourspace(cat.get(), &tmp, VIPS_INTERPRETATION_B_W, nullptr);
  ImagePtr grey(tmp);
  vips_bandjoin_const1(grey.get(), &tmp, 128, nullptr);
  ImagePtr grey_alpha(tmp);
  out["grey_alpha.png"] = save(grey_alpha.get(), ".png", ok);
  ImagePtr anim = animation(cat.get());
  out["animated.gif"] = save(anim.get(), ".gif", ok);
  out["animated.webp"] = save(anim.get(), ".webp", ok);
  return out;
}

std::string png_declaring(int width, int height) {
  bool ok = false;
  ImagePtr cat = small_cat();
  std::string png = save(cat.get(), ".png", ok);
  auto put32 = [&](size_t at, uint32_t v) {
    for (int i = 0; i < 4; ++i) png[at + i] = char((v >> (24 - 8 * i)) & 0xff);
  };
  put32(16, uint32_t(width));
  put32(20, uint32_t(height));
  const uint32_t crc = crc32(0, reinterpret_cast<const Bytef*>(png.data() + 12), 17);
  put32(29, crc);
  return png;
}

}  // namespace strata::analyze::test
