#pragma once
// Classic scripts prepared for wombat on the replay origin (docs/replay.md, "Client-side
// rewriting"), as pywb's server-side JS proxy rewriter does: the script runs inside a block
// whose `window`, `self`, `document`, `location`, `top`, `parent`, `frames` and `opener` are
// wombat's proxies, so a script that reads `location.href` or `document.domain` sees the
// archived page's URL and host, not the replay server's (a client-side router, such as
// Twitter's, then routes as it did when the page was captured). Also, as pywb does:
// `location = X` assigns through wombat's location (the navigation stays in the archive),
// and `x.postMessage(` goes through wombat's origin shim.
//
// Left as they are: scripts that name none of those objects, scripts already wrapped, and
// ES modules (import/export statements cannot stand in a block). Top-level `let`, `const` and
// `class` names (unindented at a line's start) are copied to `globalThis` at the end, so later
// scripts of the page still see them. Pure text work; never throws.
#include <string>
#include <string_view>

namespace strata::replay {

std::string wrap_script_for_wombat(std::string_view js);

}  // namespace strata::replay
