#pragma once
// Near-duplicate collapse of search results (docs/search.md, "Near-duplicate collapse").
// Xapian collapses the matches on slot::group, one result per group at the rank of its
// best-scoring member; then each group on the page shows its best image among the query's
// matches (largest, then oldest capture, then image URL: the image the grouping makes its
// leader) and counts its matching members, with one more query over those groups alone.
//
// Failure contract: throws Xapian::Error, as search() does.
#include <xapian.h>

#include <vector>

#include "search/index_parts.hpp"
#include "search/searcher.hpp"

namespace strata::search {

// Sets every hit's group size (images of its group in the index; 1 when alone).
void count_group_sizes(const Xapian::Database& db, std::vector<Hit>& hits);

// Replaces each grouped hit's document by its group's best member among the matches of
// `query` (the hit keeps its score) and sets group_matches. Over remote parts, which cannot
// sort by a key, the best member is chosen among each group's largest matches.
void show_best_members(const Xapian::Database& db, const Xapian::Query& query,
                       std::vector<Hit>& hits, const IndexParts& parts);

}  // namespace strata::search
