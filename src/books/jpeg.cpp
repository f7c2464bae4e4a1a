#include "books/jpeg.hpp"

// jpeglib.h needs FILE and size_t declared first.
#include <jerror.h>
#include <jpeglib.h>
#include <csetjmp>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <vector>

namespace strata::books {
namespace {

// libjpeg reports fatal errors through error_exit, which must not return: jump back to the
// function that called into libjpeg (only C structs live between the two points).
struct ErrorManager {
  jpeg_error_mgr pub;
  std::jmp_buf jump;
  char message[JMSG_LENGTH_MAX];
};

void jump_on_error(j_common_ptr info) {
  auto* err = reinterpret_cast<ErrorManager*>(info->err);
  (*info->err->format_message)(info, err->message);
  std::longjmp(err->jump, 1);
}

// A truncated scan decodes to grey rows with only a warning: for a crop that is an error.
void jump_on_truncation(j_common_ptr info, int level) {
  if (level == -1 && info->err->msg_code == JWRN_JPEG_EOF) jump_on_error(info);
}

enum class Want { bounds, rows };

// Reads the header and, for Want::rows, the rows of `box` (the whole image when `box` is
// empty) into `out`; returns an error message or nullptr.
const char* read_jpeg(std::string_view data, Box& box, Want want, Raster& out) {
  jpeg_decompress_struct info;
  ErrorManager err;
  info.err = jpeg_std_error(&err.pub);
  err.pub.error_exit = jump_on_error;
  err.pub.emit_message = jump_on_truncation;
  static thread_local char message[JMSG_LENGTH_MAX];
  std::vector<JSAMPLE> row;  // before setjmp: a jump back must not skip its destructor
  if (setjmp(err.jump)) {
    std::memcpy(message, err.message, sizeof message);
    jpeg_destroy_decompress(&info);
    return message;
  }
  jpeg_create_decompress(&info);
  jpeg_mem_src(&info, reinterpret_cast<const unsigned char*>(data.data()),
               static_cast<unsigned long>(data.size()));
  jpeg_read_header(&info, TRUE);
  const Box bounds{0, 0, static_cast<int>(info.image_width), static_cast<int>(info.image_height)};
  if (want == Want::bounds || box.empty()) box = bounds;
  if (want == Want::bounds) {
    jpeg_destroy_decompress(&info);
    return nullptr;
  }
  if (box.l < 0 || box.t < 0 || box.r > bounds.r || box.b > bounds.b) {
    jpeg_destroy_decompress(&info);
    return "region outside the image";
  }
  info.out_color_space = info.num_components == 1 ? JCS_GRAYSCALE : JCS_RGB;
  jpeg_start_decompress(&info);
  const int channels = static_cast<int>(info.output_components);
  out = Raster{box.width(), box.height(), channels, {}};
  out.pixels.resize(static_cast<size_t>(out.width) * out.height * channels);
  row.resize(static_cast<size_t>(info.output_width) * channels);
  if (box.t > 0) jpeg_skip_scanlines(&info, static_cast<JDIMENSION>(box.t));
  for (int y = 0; y < out.height; ++y) {
    JSAMPROW rows[1] = {row.data()};
    if (jpeg_read_scanlines(&info, rows, 1) != 1) {
      jpeg_destroy_decompress(&info);
      return "truncated JPEG";
    }
    std::memcpy(out.pixels.data() + static_cast<size_t>(y) * out.width * channels,
                row.data() + static_cast<size_t>(box.l) * channels,
                static_cast<size_t>(out.width) * channels);
  }
  jpeg_abort_decompress(&info);
  jpeg_destroy_decompress(&info);
  return nullptr;
}

Raster decode(std::string_view data, Box box) {
  Raster out;
  if (const char* error = read_jpeg(data, box, Want::rows, out)) throw JpegError(error);
  return out;
}

}  // namespace

Raster jpeg_decode_region(std::string_view data, const Box& box) {
  if (box.empty()) throw JpegError("empty region");
  return decode(data, box);
}

Raster jpeg_decode_full(std::string_view data) {
  return decode(data, Box{});
}

Box jpeg_bounds(std::string_view data) {
  Box box;
  Raster unused;
  if (const char* error = read_jpeg(data, box, Want::bounds, unused)) throw JpegError(error);
  return box;
}

std::string jpeg_encode(const Raster& raster, int quality) {
  jpeg_compress_struct info;
  ErrorManager err;
  info.err = jpeg_std_error(&err.pub);
  err.pub.error_exit = jump_on_error;
  unsigned char* buffer = nullptr;
  unsigned long size = 0;
  if (setjmp(err.jump)) {
    jpeg_destroy_compress(&info);
    std::free(buffer);
    throw JpegError(err.message);
  }
  jpeg_create_compress(&info);
  jpeg_mem_dest(&info, &buffer, &size);
  info.image_width = static_cast<JDIMENSION>(raster.width);
  info.image_height = static_cast<JDIMENSION>(raster.height);
  info.input_components = raster.channels;
  info.in_color_space = raster.channels == 1 ? JCS_GRAYSCALE : JCS_RGB;
  jpeg_set_defaults(&info);
  jpeg_set_quality(&info, quality, TRUE);
  jpeg_start_compress(&info, TRUE);
  const size_t stride = static_cast<size_t>(raster.width) * raster.channels;
  while (info.next_scanline < info.image_height) {
    JSAMPROW row = const_cast<JSAMPLE*>(raster.pixels.data() + info.next_scanline * stride);
    jpeg_write_scanlines(&info, &row, 1);
  }
  jpeg_finish_compress(&info);
  std::string out(reinterpret_cast<char*>(buffer), size);
  jpeg_destroy_compress(&info);
  std::free(buffer);
  return out;
}

}  // namespace strata::books
