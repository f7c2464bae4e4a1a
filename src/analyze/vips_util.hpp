#pragma once
// Small RAII helpers over the libvips C API (internal to src/analyze).
#include <vips/vips.h>

#include <memory>
#include <string>

namespace strata::analyze::detail {

struct UnrefImage {
  void operator()(VipsImage* image) const { g_object_unref(image); }
};
using ImagePtr = std::unique_ptr<VipsImage, UnrefImage>;

// The pending libvips error message, cleared.
std::string vips_error();

// Loads from a buffer that must outlive the image; `options` is a libvips option string
// such as "[n=-1]" (may be empty). nullptr on error.
ImagePtr load_buffer(const void* data, size_t size, const char* options = "");

// Converts to 8-bit sRGB with three bands (CMYK, grey, 16-bit and alpha handled).
ImagePtr to_srgb8(VipsImage* in);

}  // namespace strata::analyze::detail
