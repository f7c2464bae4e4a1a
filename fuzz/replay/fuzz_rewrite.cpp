// Replay's HTML, CSS and JavaScript rewriting over arbitrary bytes: never crashes, and every
// rewritten reference stays inside the archive prefix it was given.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "replay/rewrite.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  const strata::replay::RewriteContext ctx{"/wayback/", "20080430204826",
                                           "http://www.archive.org/web/index.php"};
  strata::replay::rewrite_html(text, ctx, "<div>banner</div>");
  strata::replay::rewrite_css(text, ctx);
  strata::replay::rewrite_js(text, ctx);
  std::string ref = strata::replay::rewrite_reference(ctx, "im_", text);
  if (ref != text && !std::string_view(ref).starts_with("/wayback/20080430204826im_/http"))
    __builtin_trap();
  return 0;
}
