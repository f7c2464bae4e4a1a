#pragma once
// The ImageSearch API v1.1 (Arquivo-compatible) as a pure function: validated parameters in,
// JSON reply out. The HTTP server (server.hpp) only routes to it. Reference: docs/api.md.
#include <xapian.h>

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "search/searcher.hpp"

namespace strata::server {

using Params = std::multimap<std::string, std::string>;

struct ApiConfig {
  std::string service_name = "Strata - image search service.";
  std::string documentation =
      "https://github.com/arquivo/pwa-technologies/wiki/ImageSearch-API-v1.1-(beta)";
  std::string replay_prefix;  // empty: <base>/wayback/
  // Safe search the operator controls: the default, and whether clients may change it (with
  // safeSearch=off or the inline safe:off). Locked, search, replay and thumbnails all hide
  // what safe search hides.
  bool safe_search = true;
  bool safe_search_locked = false;
  // The most images one export may hold (serve --export-max, /imagesearch/export).
  uint64_t export_max_images = 100'000;
};

struct Reply {
  int status = 200;
  std::string body;
  std::string content_type = "application/json; charset=UTF-8";
};

struct RequestContext {
  std::string base;  // the service URL (never the request's Host)
  std::string path;  // "/imagesearch"
};

Reply image_search(Xapian::Database& db, const Params& params, const RequestContext& ctx,
                   const ApiConfig& config);

// Over shards (src/shard): how many were asked and which did not answer (their names go to
// the log only; the reply says how many, with "partialResults": true, as Solr does).
struct ShardAnswer {
  size_t shards = 0;
  std::vector<std::string> missing;
};
using SearchRunner =
    std::function<search::SearchResult(const search::SearchRequest&, ShardAnswer& answer)>;
// The same reply from `run` (search::search over one index, or over shards); it throws
// search::RequestError for a bad request.
Reply image_search(const SearchRunner& run, const Params& params, const RequestContext& ctx,
                   const ApiConfig& config);

// JSON error body for a bad parameter (HTTP 400).
Reply bad_request(const std::string& parameter, const std::string& message,
                  const ApiConfig& config);

}  // namespace strata::server
