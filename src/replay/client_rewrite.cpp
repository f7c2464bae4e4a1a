#include "replay/client_rewrite.hpp"

#include "core/json.hpp"
#include "core/timestamp.hpp"

namespace strata::replay {
namespace {

// JSON safe inside an HTML <script> element.
std::string script_json(const Json& value) {
  std::string out;
  for (char c : value.dump(-1, ' ', false, Json::error_handler_t::replace)) {
    if (c == '<')
      out += "\\u003c";
    else if (c == '>')
      out += "\\u003e";
    else if (c == '&')
      out += "\\u0026";
    else
      out += c;
  }
  return out;
}

// "http", "example.com:8080" of "http://example.com:8080/a?b".
std::pair<std::string, std::string> scheme_and_host(std::string_view url) {
  size_t colon = url.find("://");
  if (colon == std::string_view::npos) return {"http", ""};
  size_t start = colon + 3, end = url.find_first_of("/?#", start);
  return {std::string(url.substr(0, colon)),
          std::string(url.substr(start, end == std::string_view::npos ? end : end - start))};
}

// A navigation that would leave the archive (a script setting location.href to a URL it
// built, a form, a link wombat did not see) is cancelled and made again to the archive URL
// of its target, through the Navigation API's cancelable navigate event: scripts the server
// wraps for wombat (script_wrap.hpp) navigate through wombat's location, but a script it
// leaves alone (a module, an event handler attribute) uses the real one.
constexpr const char* kNavigationGuard =
    "(function(w){var n=window.navigation;if(!n)return;"
    "n.addEventListener('navigate',function(e){var to;"
    "try{to=new URL(e.destination.url)}catch(x){return}"
    "if(to.origin===location.origin||!/^https?:$/.test(to.protocol)||!e.cancelable)return;"
    "e.preventDefault();location.href=w.prefix+w.timestamp+'/'+to.href})})(wbinfo);";

}  // namespace

std::string wombat_head_insert(const ClientRewriteSetup& s) {
  auto [scheme, host] = scheme_and_host(s.url);
  const auto seconds = timestamp_to_epoch(s.timestamp);
  Json info{{"top_url", s.prefix + s.timestamp + s.mod + "/" + s.url},
            {"url", s.url},
            {"timestamp", s.timestamp},
            {"request_ts", s.request_ts},
            {"prefix", s.prefix},
            {"mod", s.mod},
            {"is_framed", false},
            {"is_live", false},
            {"coll", s.coll},
            {"proxy_magic", ""},
            {"static_prefix", s.static_prefix},
            {"enable_auto_fetch", false},
            {"wombat_ts", s.timestamp},
            {"wombat_sec", std::to_string(seconds.value_or(0))},
            {"wombat_scheme", scheme},
            {"wombat_host", host},
            {"wombat_opts", Json::object()}};
  return "<script src=\"" + s.static_prefix +
         "wombat.js\"></script><script>var wbinfo = " + script_json(info) +
         ";if (window._WBWombatInit) window._WBWombatInit(wbinfo);" + kNavigationGuard +
         "</script>";
}

}  // namespace strata::replay
