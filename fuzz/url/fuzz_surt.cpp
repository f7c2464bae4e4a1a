// Both canonical keys and the tokens must accept any bytes without crashing, and the SURT
// shortcut for plain URLs must give what the full Heritrix path gives.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "url/heritrix.hpp"
#include "url/url.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view input(reinterpret_cast<const char*>(data), size);
  (void)strata::url::surt(input);
  if (auto plain = strata::url::detail::plain_surt(input))
    if (*plain != strata::url::detail::heritrix_surt(input)) __builtin_trap();
  (void)strata::url::cdx_surt(input);
  (void)strata::url::url_tokens(input);
  (void)strata::url::has_image_extension(input);
  return 0;
}
