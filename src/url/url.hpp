#pragma once
#include <cstdint>
// URL handling shared by every stage: the two canonical keys (Arquivo's SURT, which decides
// which image records and page references meet, and the pywb CDXJ key), browser-like
// resolution of references found in HTML, and the search tokens derived from URLs.
// docs/url.md states every rule precisely.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace strata::url {

// Arquivo's WARCInformationParser.toSURT: data:/hash: pass through; one of "//", "https://",
// "http://" and then one of "www.", "ww2.", "ww3." are stripped; the rest goes through
// webarchive-commons 1.1.9 SURT.toSURT (Heritrix fix-up, host reversal, all lower-case,
// query unsorted). Never fails: unusable input comes back as the stripped string.
std::string surt(std::string_view url);

// `url` with its percent-encoding canonicalised, so that equivalent URLs meet (as pywb's and
// the IA CDX server's canonicalisers make them meet): in the path and the query, the escape
// of a character that needs none there is decoded (%2C -> ','); every other escape stays,
// with upper-case hex. Kept encoded: %2F %3F %23 %25 and non-pchar characters in the path,
// also %26 %3D %2B %3B in the query; a stray '%' becomes %25. The part before the path, the
// fragment, data: and hash: URLs are unchanged; no escape is decoded twice.
std::string canonical_escapes(std::string_view url);

// The key image captures and page references join on (imgSurt): surt(canonical_escapes(url)).
// Arquivo's own key, surt(url), is what the API shows.
std::string join_surt(std::string_view url);

// The pywb / cdxj-indexer key (Python `surt.surt` defaults): no scheme, "www\d*." dropped,
// default port and userinfo dropped, path and query lower-cased, query arguments sorted,
// trailing slash dropped, e.g. "org,iana)/domains/example". Empty input gives "-".
std::string cdx_surt(std::string_view url);

// Browser-like resolution (RFC 3986 plus the WHATWG fix-ups browsers apply): surrounding
// whitespace and control characters trimmed, TAB/CR/LF removed, '\' read as '/' for
// http(s), protocol-relative "//host", "?query", "#frag", "./x", "../x" all handled.
// nullopt when neither `relative` is absolute nor `base` is a usable absolute URL.
std::optional<std::string> resolve(std::string_view base, std::string_view relative);

// The lower-cased host of an absolute (or scheme-less "host/path") URL, without userinfo,
// port or trailing dot; empty when there is none.
std::string host(std::string_view url);

// The host as pageHost stores it: case-folded, "www." kept (site search expands it).
std::string page_host(std::string_view url);

// Whether the path (query and fragment ignored) ends in an image extension: Arquivo's
// jpg jpeg png tif tiff gif svg webp bmp ico, plus avif; case-insensitive.
bool has_image_extension(std::string_view url);

// URLs longer than this are not indexed (they are nearly always generated garbage).
inline constexpr std::size_t kMaxUrlLength = 10000;
inline bool within_length_limit(std::string_view url) {
  return url.size() <= kMaxUrlLength;
}

// Search tokens of a URL (imgUrlTokens / pageUrlTokens): scheme and a leading "www."
// dropped, %XX escapes decoded where they form valid UTF-8, then split on ASCII and
// Unicode punctuation, symbols and whitespace; tokens joined by single spaces, case kept.
// data: and hash: URLs give "".
std::string url_tokens(std::string_view url);

// Decodes one UTF-8 code point at s[i] and advances i; a byte that does not start a valid
// sequence comes back as itself (so Latin-1 bytes read as ISO-8859-1, as warcio does).
uint32_t next_code_point(std::string_view s, std::size_t& i);

}  // namespace strata::url
