#include "core/pictographs.hpp"

#include <unicode/uchar.h>
#include <unicode/utf8.h>

#include <cstdint>

namespace strata::core {

bool pictographs_only(std::string_view text) {
  bool any = false;
  const auto* s = reinterpret_cast<const uint8_t*>(text.data());
  const auto n = static_cast<int32_t>(text.size());
  for (int32_t i = 0; i < n;) {
    UChar32 c;
    U8_NEXT(s, i, n, c);
    if (c < 0 || u_isalnum(c)) return false;
    any = any || !u_isspace(c);
  }
  return any;
}

}  // namespace strata::core
