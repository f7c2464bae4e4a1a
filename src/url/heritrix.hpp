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

// SURT.fromURI's host reversal: "a.b.c" gives "c,b,a,".
std::string reverse_host(std::string_view host);

// Whether LaxURLCodec leaves c unescaped (EXPANDED_URI_SAFE; QUERY_SAFE adds {}[]^?).
bool lax_safe(unsigned char c, bool query);

// SURT.toSURT of a URL that url::surt has stripped of its scheme and "www.": Heritrix's
// fix-up, SURT.fromURI, then the prefix-key trimming.
std::string heritrix_surt(std::string_view url);

// The same for a plain URL (an ASCII host, then a path and query of characters no fix-up
// touches), computed directly; nullopt for any other URL.
std::optional<std::string> plain_surt(std::string_view url);

}  // namespace strata::url::detail
