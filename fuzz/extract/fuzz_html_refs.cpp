// Any bytes as a page: the reference finder and captions must never crash or hang.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "extract/html_refs.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  strata::Counters counters;
  strata::extract::RefOptions options;
  options.max_images = 200;
  std::string_view html(reinterpret_cast<const char*>(data), size);
  strata::extract::find_references("http://example.com/a/b.html", html, options, counters);
  return 0;
}
