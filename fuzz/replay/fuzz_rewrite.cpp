// Replay's HTML, CSS and JavaScript rewriting over arbitrary bytes: never crashes, every
// rewritten reference stays inside the archive prefix it was given, and a script wrapped for
// wombat (the replay origin's pass) is not wrapped twice.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "replay/rewrite.hpp"
#include "replay/script_wrap.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  const strata::replay::RewriteContext ctx{"/wayback/", "20080430204826",
                                           "http://www.archive.org/web/index.php"};
  strata::replay::rewrite_html(text, ctx, "<div>banner</div>");
  strata::replay::rewrite_css(text, ctx);
  strata::replay::rewrite_js(text, ctx);
  strata::replay::RewriteContext origin = ctx;
  origin.wrap_scripts_for_wombat = true;
  strata::replay::rewrite_html(text, origin);
  const std::string wrapped = strata::replay::wrap_script_for_wombat(text);
  if (strata::replay::wrap_script_for_wombat(wrapped) != wrapped) __builtin_trap();
  std::string ref = strata::replay::rewrite_reference(ctx, "im_", text);
  if (ref != text && !std::string_view(ref).starts_with("/wayback/20080430204826im_/http"))
    __builtin_trap();
  return 0;
}
