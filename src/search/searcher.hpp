#pragma once
// Runs a search against an open index: BM25 (k1 1.2, b 0.75, as Solr), the query of
// query_builder.hpp, results sorted by score, then oldest capture, then image URL; plus the
// years facet (matching images in every year they were captured); near-duplicates collapsed
// unless the request turns it off (search/collapse.hpp).
#include <xapian.h>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "index/document_builder.hpp"
#include "merge/document.hpp"
#include "search/index_parts.hpp"
#include "search/request.hpp"

namespace strata::search {

struct Hit {
  double score = 0;
  merge::ImageDocument doc;
  index::Moderation moderation;
  uint32_t covers = 0;         // with redundancy: the results of the window this one covers
  std::string group;           // slot::group value: the near-duplicate group; "" when alone
  uint64_t group_size = 1;     // images of the group in the index
  uint64_t group_matches = 0;  // collapsed results: members among the query's matches
};

// What a redundancy request's cover did (search/redundancy.hpp).
struct RedundancySummary {
  std::string expression;  // canonical (cover::to_string), from the parameter or q
  size_t window = 0;       // results covered (the top N)
  size_t kept = 0;         // results left: the cover
  size_t exact_components = 0, greedy_components = 0;
  size_t ilp_components = 0;  // of the exact ones, solved by the integer program
  size_t capped = 0;          // results in giant clusters of one pHash (cover/candidates.hpp)
  double greedy_bound = 1;
  std::string candidates;
};

struct SearchResult {
  uint64_t total = 0;     // all matching images (a near-duplicate group once when collapsed)
  std::vector<Hit> hits;  // [offset, offset + max_items)
  std::vector<std::pair<std::string, uint64_t>> years;  // "yyyy" -> images captured that year
  std::optional<RedundancySummary> redundancy;
};

// Parses request.q (applying its inline operators) and searches. Throws RequestError for a
// bad operator in q. `db` is not modified (not thread-safe: one Database per thread).
SearchResult search(Xapian::Database& db, const SearchRequest& request);
// The same over `db` made of `parts` (search/index_parts.hpp): several indexes or shards.
SearchResult search(Xapian::Database& db, const IndexParts& parts, const SearchRequest& request);

}  // namespace strata::search
