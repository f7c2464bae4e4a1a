#pragma once
// The minimum cover of one component as an integer program, solved by GLPK's branch and cut
// (docs/redundancy.md, "Algorithms"): minimise the number of kept items such that every item
// is kept or covered by a kept one. For components above the bit-mask branch and bound's 64
// items, within a time and size limit; past either the caller keeps its greedy cover.
//
// Failure contract: never throws (beyond std::bad_alloc); a component above kIlpMaxNonzeros
// coverage pairs is not attempted (`attempted` false). GLPK is not used concurrently: calls
// are serialised.
#include <cstdint>
#include <vector>

namespace strata::cover {

// Coverage pairs (matrix non-zeros) above which no program is built (memory, not time).
inline constexpr uint64_t kIlpMaxNonzeros = 2'000'000;

struct IlpCover {
  bool attempted = false;        // a program was built and run
  bool optimal = false;          // GLPK proved `chosen` optimal within the time limit
  std::vector<uint32_t> chosen;  // local indices, sorted; empty unless a solution was found
};

// `covered_by[a]`: the items covering `a` (each holds `a`); `incumbent`: a cover to start from
// (the greedy one), given to the solver as its first solution; `time_limit_ms` > 0.
IlpCover ilp_cover(const std::vector<std::vector<uint32_t>>& covered_by,
                   const std::vector<uint32_t>& incumbent, int time_limit_ms);

}  // namespace strata::cover
