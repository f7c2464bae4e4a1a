#pragma once
// Memento (RFC 7089) for replay: the timestamps a replay URL may carry, HTTP dates, the
// Link headers of mementos and TimeGates, and TimeMaps in link format (RFC 7089 section 5)
// and JSON (the Memento aggregator's form). URLs are built from `Routes`: memento
// "{replay}{ts}/{url}", TimeGate "{replay}{url}", TimeMaps "{replay}timemap/{link|json}/{url}".
// Pure functions; never throw.
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "replay/captures.hpp"

namespace strata::replay {

// Partial timestamps (4 to 14 digits) padded to the first or last second they cover:
// "2008" -> 20080101000000 / 20081231235959; nullopt for anything else or an impossible date.
enum class Pad { down, up };
std::optional<std::string> pad_timestamp(std::string_view digits, Pad pad);

// 14 digits <-> RFC 7231 IMF-fixdate ("Wed, 30 Apr 2008 20:48:29 GMT").
std::string http_date(std::string_view ts14);
std::optional<std::string> parse_http_date(std::string_view text);

struct Routes {
  std::string replay;  // absolute: "http://host:port/wayback/"
  std::string memento(std::string_view ts, std::string_view url) const;
  std::string timegate(std::string_view url) const;
  std::string timemap(std::string_view format, std::string_view url) const;  // link, json
};

// The Link header of a memento of `original` (original, timegate, timemap).
std::string memento_link_header(const Routes& routes, std::string_view original);

// The Link header of a TimeGate's redirect (RFC 7089 section 4.1.1): original, and the
// timemap with its type and the first and last captures' datetimes (from, until).
// `captures`: the URL's captures in time order (not empty).
std::string timegate_link_header(const Routes& routes, std::string_view original,
                                 std::span<const Capture> captures);

// `captures`: one URL's captures in time order (not empty).
std::string timemap_link(const Routes& routes, std::string_view original,
                         std::span<const Capture> captures);
std::string timemap_json(const Routes& routes, std::string_view original,
                         std::span<const Capture> captures);

}  // namespace strata::replay
