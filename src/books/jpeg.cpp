#include "books/jpeg.hpp"

// jpeglib.h needs FILE and size_t declared first.
#include <jerror.h>
#include <jpeglib.h>
#include <csetjmp>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <memory>
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

struct JpegWriter::State {
  jpeg_compress_struct info;
  ErrorManager err;
  unsigned char* buffer = nullptr;
  unsigned long size = 0;
};

// Every call into libjpeg sets its own jump point: error_exit lands in the calling method,
// which throws; the destructor frees what libjpeg holds.
JpegWriter::JpegWriter(int width, int height, int channels, int quality)
    : state_(std::make_unique<State>()) {
  State& s = *state_;
  s.info.err = jpeg_std_error(&s.err.pub);
  s.err.pub.error_exit = jump_on_error;
  jpeg_create_compress(&s.info);
  if (setjmp(s.err.jump)) throw JpegError(s.err.message);
  jpeg_mem_dest(&s.info, &s.buffer, &s.size);
  s.info.image_width = static_cast<JDIMENSION>(width);
  s.info.image_height = static_cast<JDIMENSION>(height);
  s.info.input_components = channels;
  s.info.in_color_space = channels == 1 ? JCS_GRAYSCALE : JCS_RGB;
  jpeg_set_defaults(&s.info);
  jpeg_set_quality(&s.info, quality, TRUE);
  jpeg_start_compress(&s.info, TRUE);
}

JpegWriter::~JpegWriter() {
  jpeg_destroy_compress(&state_->info);
  std::free(state_->buffer);
}

void JpegWriter::write(const Raster& rows) {
  State& s = *state_;
  if (rows.width != static_cast<int>(s.info.image_width) ||
      rows.channels != s.info.input_components)
    throw JpegError("rows do not match the picture");
  if (setjmp(s.err.jump)) throw JpegError(s.err.message);
  const size_t stride = static_cast<size_t>(rows.width) * rows.channels;
  for (int y = 0; y < rows.height && s.info.next_scanline < s.info.image_height; ++y) {
    JSAMPROW row = const_cast<JSAMPLE*>(rows.pixels.data() + static_cast<size_t>(y) * stride);
    jpeg_write_scanlines(&s.info, &row, 1);
  }
}

std::string JpegWriter::finish() {
  State& s = *state_;
  if (s.info.next_scanline < s.info.image_height) throw JpegError("picture rows missing");
  if (setjmp(s.err.jump)) throw JpegError(s.err.message);
  jpeg_finish_compress(&s.info);
  return std::string(reinterpret_cast<char*>(s.buffer), s.size);
}

std::string jpeg_encode(const Raster& raster, int quality) {
  JpegWriter writer(raster.width, raster.height, raster.channels, quality);
  writer.write(raster);
  return writer.finish();
}

}  // namespace strata::books
