#pragma once
// Which URLs a crawl takes: normalisation (src/url resolution and escapes, fragment, default
// port and session ids dropped), trap limits and scope. Pure functions; never throw.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace strata::crawl {

// Resolves `reference` against `base` and normalises it: http(s) only, fragment dropped,
// scheme and host lower-cased, default port dropped, percent-escapes canonical
// (url::canonical_escapes), session-id parameters (jsessionid, phpsessid, sid, sessionid,
// aspsessionid*, cfid, cftoken) removed. nullopt when unusable.
std::optional<std::string> normalize_url(std::string_view base, std::string_view reference);

// The key of the URL-seen set: url::join_surt, so URLs that the index treats as one capture
// (www., case of the host, escapes) are fetched once.
std::string seen_key(std::string_view normalized_url);

struct TrapLimits {
  std::size_t max_url_length = 2083;
  std::size_t max_path_depth = 16;      // path segments
  std::size_t max_segment_repeats = 2;  // occurrences of one segment in a path
  std::size_t max_query_params = 12;
  std::size_t max_query_length = 512;
};

// The trap a URL trips ("url_length", "path_depth", "repeated_segment", "query_params",
// "query_length"), or "" when it trips none.
std::string_view trap_of(std::string_view url, const TrapLimits& limits);

struct Scope {
  std::vector<std::string> hosts;          // exact hosts
  std::vector<std::string> domains;        // a host or any of its subdomains
  std::vector<std::string> surt_prefixes;  // on url::surt of the URL
  std::vector<std::string> path_prefixes;  // if any, a page's path must start with one
  bool seed_hosts = true;                  // the seeds' hosts are in scope
  // Embedded resources (images) are fetched from any host, as browsers load them.
  bool embeds_anywhere = true;
};

// Whether `url` (normalised) is in scope; `embed` for images a page embeds.
bool in_scope(const Scope& scope, std::string_view url, bool embed);

// The host (lower case, port kept when not default) a URL's politeness is keyed by.
std::string politeness_host(std::string_view url);

}  // namespace strata::crawl
