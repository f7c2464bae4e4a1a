#pragma once
// Internal: the webarchive-commons 1.1.9 pieces behind Arquivo's SURT
// (UsableURIFactory.fixup + UsableURI normalisation, and org.archive.util.SURT.fromURI).
#include <optional>
#include <string>
#include <string_view>

namespace strata::url::detail {

// UsableURIFactory's MAX_URL_LENGTH (IE's limit), checked before and after escaping.
inline constexpr std::size_t kHeritrixMaxLength = 2083;

// scheme://authority + escaped path?query of the fixed-up URI, or nullopt where Heritrix
// throws a URIException (too long, relative, bad port, un-punycodable host, ...).
std::optional<std::string> heritrix_key_source(std::string_view uri);

// SURT.fromURI(s) with preserveCase=false.
std::string surt_from_uri(std::string_view s);

}  // namespace strata::url::detail
