// srcset and CSS url() parsing over arbitrary text.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "extract/css_urls.hpp"
#include "extract/srcset.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  for (const auto& url : strata::extract::parse_srcset(text))
    if (url.empty() || url.size() > size) __builtin_trap();
  strata::extract::css_urls(text);
  return 0;
}
