#pragma once
// A pywb-compatible CDX server API over a CaptureIndex (pywb docs, "CDXJ Server API"):
// url (with the `*` shortcuts "example.com/path/*" = prefix, "*.example.com" = domain),
// matchType exact|prefix|host|domain, from/to (4 to 14 digits, padded down/up, inclusive),
// filter ([!][=|~]field:expression: contains, exact, regex from the start; repeatable),
// collapse (field[:N], the wayback-cdx-server's: a line whose field, or its first N
// characters, equals the last kept line's is dropped; repeatable), sort=reverse|closest with
// closest=ts, limit, fl (fields) and output cdxj (default)|json (NDJSON)|text. Every
// parameter is validated: a bad one is a CdxAnswer with status 400 naming it. Never throws.
#include <functional>
#include <map>
#include <string>

#include "replay/captures.hpp"

namespace strata::replay {

struct CdxAnswer {
  int status = 200;
  std::string body;  // the lines, or {"error": ...}
  std::string content_type = "text/plain; charset=utf-8";
};

// `hidden` leaves captures out (the server's: blocked images, and what a locked safe search
// hides), before limit and collapse count them.
CdxAnswer cdx_api(const CaptureIndex& index, const std::multimap<std::string, std::string>& params,
                  const std::function<bool(const Capture&)>& hidden = nullptr);

}  // namespace strata::replay
