#pragma once
// What replay adds around archived pages, as plain HTML without scripts (the archived-content
// policy runs none): the banner inserted at the top of a replayed page (the served capture's
// date, its neighbours, the list of all captures, the original URL) and the page listing
// every capture of a URL (/wayback/*/URL). Links are host-relative under `prefix`.
#include <span>
#include <string>
#include <string_view>

#include "core/html_escape.hpp"
#include "replay/captures.hpp"

namespace strata::replay {

using strata::html_escape;

// "30 Apr 2008 20:48:29 UTC"
std::string display_date(std::string_view ts14);

// `captures`: the captures of the served URL, in time order.
std::string banner_html(std::string_view prefix, const Capture& served,
                        std::span<const Capture> captures);

// A whole page: every capture of `url`, newest year first, each linking to its replay.
std::string captures_page(std::string_view prefix, std::string_view url,
                          std::span<const Capture> captures);

}  // namespace strata::replay
