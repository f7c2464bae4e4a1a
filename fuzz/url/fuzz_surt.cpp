// Both canonical keys and the tokens must accept any bytes without crashing.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "url/url.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view input(reinterpret_cast<const char*>(data), size);
  (void)strata::url::surt(input);
  (void)strata::url::cdx_surt(input);
  (void)strata::url::url_tokens(input);
  (void)strata::url::has_image_extension(input);
  return 0;
}
