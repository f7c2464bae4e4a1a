#pragma once
// User-defined redundancy over a result list (docs/redundancy.md, "Over search results"):
// the minimum cover (src/cover) of the top results under the request's expression, where a
// better-ranked result wins every tie and each result is assigned to the best-ranked kept
// result that covers it.
#include "search/request.hpp"
#include "search/searcher.hpp"

namespace strata::search {

// Pairs compared one by one when the expression has no same(...) or phash atom: all pairs of
// a 2,000-result window (~16 MB of pairs, tens of milliseconds).
inline constexpr uint64_t kRedundancyPairBudget = 2'000'000;
// Integer programs (components above 64 results the bound leaves open) get this long in all:
// the interactive latency budget (docs/redundancy.md), past it those components stay greedy.
inline constexpr int kRedundancyIlpMs = 10;

// `result.hits` holds the top results in rank order (at most request.redundancy_window);
// replaces them with the page [offset, offset + max_items) of the kept ones, each with its
// `covers` count, or with `expand` set, with that page of the results `expand` covers; sets
// result.redundancy. Throws RequestError("redundancy") when the expression blocks nothing and
// the window has more pairs than kRedundancyPairBudget; nothing else (beyond std::bad_alloc).
void cover_results(SearchResult& result, const SearchRequest& request);

}  // namespace strata::search
