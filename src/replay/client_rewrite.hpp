#pragma once
// Client-side rewriting (docs/replay.md "Client-side rewriting"): the scripts inserted at
// the top of a replayed page's <head> that load Webrecorder's wombat (npm
// @webrecorder/wombat, served by `strata serve` from the replay origin, never from the
// network) and start it with the capture's facts, the way pywb's head insert does, so URLs
// that the page's scripts build at run time (fetch, XHR, img.src, createElement, location,
// document.write, ...) are rewritten to archive URLs. Pure function; never throws.
#include <string>
#include <string_view>

namespace strata::replay {

struct ClientRewriteSetup {
  std::string prefix;         // absolute archive prefix: "http://127.0.0.1:8081/wayback/"
  std::string static_prefix;  // where wombat.js is served: "/_strata/"
  std::string timestamp;      // the served capture's 14 digits
  std::string request_ts;     // the timestamp the request named (may be partial or empty)
  std::string url;            // the served capture's URL
  std::string mod;            // the modifier the page is served under ("", "if_", "mp_")
  std::string coll;           // the collection segment wombat reports ("wayback")
};

// "<script src=...wombat.js></script><script>wbinfo = {...}; _WBWombatInit(wbinfo); guard
// </script>": the guard sends any navigation to another origin to that URL's archive URL
// instead (the Navigation API's navigate event), so a page never leaves the archive.
// every value is JSON-encoded with '<', '>' and '&' escaped, so no archived URL can close
// the script element.
std::string wombat_head_insert(const ClientRewriteSetup& setup);

}  // namespace strata::replay
