#pragma once
// The minimum cover set (docs/redundancy.md, "Algorithms"): the fewest documents such that
// every document is covered (Cov(a, b): `b` covers `a`) by one of them. Candidate pairs
// (candidates.hpp) → coverage graph → connected components → per component: a proven optimum
// when a lower bound meets the greedy cover or branch and bound finishes (components of at
// most kExactLimit documents) or an integer program finishes (GLPK, ilp.hpp: larger components,
// within CoverOptions::ilp_time_ms), else the greedy cover, within H(Δ) ≤ 1 + ln Δ of the
// optimum (Δ: the most documents one document covers).
//
// Items are given in rank order: ties between equally good choices go to the earlier item,
// and each document is assigned to the earliest kept document that covers it.
//
// Failure contract: throws CoverError (candidates.hpp) when the expression cannot be blocked
// and all pairs exceed the budget, or when the shingle index cannot spill; nothing else (beyond
// std::bad_alloc).
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "cover/candidates.hpp"
#include "cover/expr.hpp"
#include "cover/item.hpp"

namespace strata::cover {

inline constexpr size_t kExactLimit = 64;

struct CoverOptions {
  uint64_t pair_budget = 50'000'000;  // pairs compared one by one (no blocking key)
  uint64_t node_limit = 100'000;      // branch-and-bound nodes per component
  unsigned threads = 1;               // threads testing the candidate pairs
  // Time for integer programs over all components above kExactLimit that the bound does not
  // settle (0: none; each component gets what is left, greedy when it runs out).
  int ilp_time_ms = 10'000;
  SpillOptions spill = {};  // the shingle index's memory budget and spill folder (candidates.hpp)
  // The items' texts, when they are held apart from the items (an offline cover of pages):
  // the pair tests then hold one chunk of them at a time (item_texts.hpp).
  const ItemTexts* texts = nullptr;
};

struct CoverResult {
  std::vector<uint32_t> keeper;     // per item: the kept item that covers it (itself if kept)
  std::vector<uint32_t> covers;     // per item: how many others it is the keeper of
  std::vector<uint32_t> component;  // per item: its component (the smallest item index in it)
  size_t kept = 0;
  size_t components = 0;  // of two or more items
  size_t largest_component = 1;
  size_t exact_components = 0;   // proven optimal (of two or more items)
  size_t ilp_components = 0;     // of those, proven by the integer program
  size_t greedy_components = 0;  // greedy, within H(Δ) of the optimum
  size_t ilp_fallbacks = 0;      // of those, an integer program ran out of time or size
  size_t capped_items = 0;       // in giant clusters of one pHash (candidates.hpp): never exact
  size_t items_exact = 0, items_greedy = 0;
  size_t lower_bound = 0;   // a proven lower bound on the minimum cover size
  double greedy_bound = 1;  // H(Δ) of the worst greedy component (1 when none)
  uint64_t candidate_pairs = 0, edges = 0;
  uint64_t spilled_runs = 0;  // run files the shingle index and the pair tests spilled
  size_t text_chunks = 0;     // chunks of texts held apart (ItemTexts), 0 without
  std::string method;         // how candidates were found (candidates.hpp)
};

CoverResult compute_cover(const Expr& e, std::span<const Item> items,
                          const CoverOptions& options = {});

// The solver alone, on a coverage graph given as `covered_by[a]` = the items that cover `a`
// (each list holds `a` itself). For tests and for callers that test pairs themselves.
enum class Solver {
  bound,             // the greedy cover meets the packing lower bound
  branch_and_bound,  // bit masks, at most kExactLimit items
  ilp,               // GLPK (ilp.hpp)
  greedy,            // none of the above finished: greedy, within H(Δ)
};
struct ComponentCover {
  std::vector<uint32_t> chosen;  // local indices, sorted
  bool exact = false;
  size_t lower_bound = 0;
  Solver solver = Solver::greedy;
  bool ilp_fallback = false;  // an integer program was tried and did not finish
};
// `ilp_time_ms` (0: none) for components above kExactLimit, or when branch and bound stops.
ComponentCover solve_component(const std::vector<std::vector<uint32_t>>& covered_by,
                               uint64_t node_limit, int ilp_time_ms = 0);

}  // namespace strata::cover
