#pragma once
// The check that a search over shards answers as one index built from the same documents.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "search/searcher.hpp"

namespace strata::shard::testing {

using search::SearchResult;

inline std::string describe(const search::Hit& h) {
  return h.doc.id + " group size " + std::to_string(h.group_size) + " matches " +
         std::to_string(h.group_matches);
}

// Same totals, facet and scores rank by rank, and the same hits. Near-duplicate groups of
// equal score may come in another order: Xapian keeps the first member of a group it meets
// (docid order, which sharding changes) and that member's capture orders the tie
// (docs/scale.md); so with collapse, each run of equal scores is compared as a set, but for a
// run that goes on past a full page (which of its groups make the page may differ).
inline void expect_same(const SearchResult& one, const SearchResult& sharded, bool collapse,
                        unsigned page_size, const std::string& what) {
  EXPECT_EQ(sharded.total, one.total) << what;
  EXPECT_EQ(sharded.years, one.years) << what;
  ASSERT_EQ(sharded.hits.size(), one.hits.size()) << what;
  const size_t n = one.hits.size();
  for (size_t from = 0, to = 0; from < n; from = to) {
    to = from + 1;
    while (collapse && to < n && one.hits[to].score == one.hits[from].score) ++to;
    std::multiset<std::string> a, b;
    for (size_t i = from; i < to; ++i) {
      EXPECT_NEAR(sharded.hits[i].score, one.hits[i].score, 1e-9 * std::max(1.0, one.hits[i].score))
          << what << " rank " << i;
      a.insert(describe(one.hits[i]));
      b.insert(describe(sharded.hits[i]));
    }
    const bool cut = collapse && to == n && n == page_size;
    if (!cut) {
      EXPECT_EQ(b, a) << what << " ranks " << from << "-" << to;
    }
  }
}

}  // namespace strata::shard::testing
