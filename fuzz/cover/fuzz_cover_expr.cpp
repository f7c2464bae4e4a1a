// The coverage language must accept any bytes without crashing: text either parses or throws
// ExprError with a column inside it (or just past it), and what parses prints back to text
// that parses to the same expression, which evaluates without crashing.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "cover/expr.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  strata::cover::ExprPtr e;
  try {
    e = strata::cover::parse(text);
  } catch (const strata::cover::ExprError& error) {
    if (error.column == 0 || error.column > text.size() + 1) __builtin_trap();
    return 0;
  }
  const std::string printed = strata::cover::to_string(*e);
  // Units print as plain numbers (1y -> 31536000), so a long text may print longer than allowed.
  if (printed.size() <= strata::cover::kMaxExprChars &&
      strata::cover::to_string(*strata::cover::parse(printed)) != printed)
    __builtin_trap();
  strata::cover::Item a, b;
  a.phash = 1;
  a.set(strata::cover::NumberAttr::ts, 1);
  b.set(strata::cover::StringAttr::url, "u");
  (void)strata::cover::covers(*e, a, b);
  (void)strata::cover::covers(*e, b, a);
  return 0;
}
