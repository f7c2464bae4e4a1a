// Both canonical keys, the join key and the tokens must accept any bytes without crashing,
// the SURT shortcut for plain URLs must give what the full Heritrix path gives, and
// canonicalising escapes twice must change nothing more.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "url/heritrix.hpp"
#include "url/url.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view input(reinterpret_cast<const char*>(data), size);
  (void)strata::url::surt(input);
  if (auto plain = strata::url::detail::plain_surt(input))
    if (*plain != strata::url::detail::heritrix_surt(input)) __builtin_trap();
  const std::string canonical = strata::url::canonical_escapes(input);
  if (strata::url::canonical_escapes(canonical) != canonical) __builtin_trap();
  (void)strata::url::join_surt(input);
  (void)strata::url::cdx_surt(input);
  (void)strata::url::url_tokens(input);
  (void)strata::url::has_image_extension(input);
  return 0;
}
