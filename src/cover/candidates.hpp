#pragma once
// Candidate pairs for a coverage expression without comparing all pairs: the expression's
// equality atoms (same(...)) block the documents by key, its Hamming atom (phash<=k) joins
// pHashes by multi-index hashing (bucket against bucket, exact by pigeonhole), a similarity
// atom with a lower bound finds pairs by prefix filtering on shingles, `|` takes the union of
// its branches. Only what neither narrows is compared pair by pair, within a budget.
//
// Failure contract: throws CoverError when the pairs to compare one by one (or a similarity
// atom's candidates) exceed the budget (the expression needs a same(...) or phash atom, or a
// higher threshold, for that many documents); nothing else
// (beyond std::bad_alloc).
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "cover/expr.hpp"
#include "cover/item.hpp"

namespace strata::cover {

struct CoverError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

using Pair = std::pair<uint32_t, uint32_t>;  // first < second

struct Candidates {
  std::vector<Pair> pairs;           // sorted, distinct
  uint64_t compared_one_by_one = 0;  // pairs generated without a blocking key
  std::string method;  // how they were found: "blocks(url)", "phash-join(6)", "all-pairs", ...
};

Candidates candidate_pairs(const Expr& e, std::span<const Item> items, uint64_t pair_budget);

// The pairs of `ids` whose pHashes are at most `k` bits apart (items without a pHash never
// pair), by a bucket-pair multi-index join; appended to `out` as (smaller, larger) item index.
void hamming_pairs(std::span<const uint32_t> ids, std::span<const Item> items, int k,
                   std::vector<Pair>& out);

}  // namespace strata::cover
