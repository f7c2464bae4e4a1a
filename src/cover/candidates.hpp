#pragma once
// Candidate pairs for a coverage expression without comparing all pairs: the expression's
// equality atoms (same(...)) block the documents by key, its Hamming atom (phash<=k) joins
// pHashes by multi-index hashing (bucket against bucket, exact by pigeonhole), a similarity
// atom with a lower bound finds pairs by prefix filtering on shingles, `|` takes the union of
// its branches. Only what neither narrows is compared pair by pair, within a budget.
//
// Failure contract: throws CoverError when the pairs to compare one by one (or a similarity
// atom's candidates) exceed the budget (the expression needs a same(...) or phash atom, or a
// higher threshold, for that many documents), or when the shingle index cannot spill (its
// temporary folder cannot be made or written); nothing else
// (beyond std::bad_alloc).
#include <cstdint>
#include <filesystem>
#include <optional>
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
  // Items of giant clusters of one pHash, paired with the cluster's first kGiantCluster only.
  std::vector<uint32_t> capped;
  uint64_t spilled_runs = 0;  // run files the shingle index wrote (0: it fitted in memory)
};

// The shingle index of a similarity atom (prefix filtering) sorts within `memory` bytes and
// spills sorted LZ4 runs to a private folder inside `temp` (the system's temporary folder when
// empty), removed afterwards. The candidates are the same whatever the budget.
struct SpillOptions {
  uint64_t memory = uint64_t{1} << 30;
  std::filesystem::path temp;
};

// Items sharing one pHash beyond this many (thousands of re-encoded copies of one picture)
// are paired only with the first kGiantCluster of them (by index: the best ranked), not with
// each other nor with the cluster's neighbours: O(n·kGiantCluster) pairs instead of O(n²).
// Their cover stays valid (only tested pairs hide anything) but is not proven minimal.
inline constexpr size_t kGiantCluster = 256;

// `texts`: the items' texts when they are held apart from the items (item_texts.hpp).
class ItemTexts;
Candidates candidate_pairs(const Expr& e, std::span<const Item> items, uint64_t pair_budget,
                           const SpillOptions& spill = {}, const ItemTexts* texts = nullptr);

// What narrows the candidate pairs of one branch of an expression (a conjunction, presets and
// nested conjunctions flattened); shared with the Hadoop Streaming keys (streaming.hpp).
struct Narrowing {
  std::vector<AttrRef> keys;           // same(...) attributes (collections aside)
  std::optional<int> hamming;          // the tightest phash<=k with k <= 24
  std::optional<TextAttr> text;        // a similarity atom bounded from below: its text
  double share = 0;                    // ... and the share of a's shingles b must hold
  const Expr* alternatives = nullptr;  // a nested `|`, when nothing else narrows
};
Narrowing narrowing(const Expr& branch);

// The value of a same(...) attribute as a block key; `missing` set when the item lacks it.
std::string block_value(const Item& item, const AttrRef& ref, bool& missing);

// The pairs of `ids` whose pHashes are at most `k` bits apart (items without a pHash never
// pair), by a bucket-pair multi-index join; appended to `out` as (smaller, larger) item index.
// Giant clusters of one pHash are capped (kGiantCluster); their extra items go to `capped`.
void hamming_pairs(std::span<const uint32_t> ids, std::span<const Item> items, int k,
                   std::vector<Pair>& out, std::vector<uint32_t>* capped = nullptr);

}  // namespace strata::cover
