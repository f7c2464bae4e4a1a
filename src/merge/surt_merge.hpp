#pragma once
// Job 1 (key = image SURT): resolve revisits, drop SURTs without images or without pages,
// and split the references of a SURT between its digests by time (paper §5.2).
#include <vector>

#include "core/counters.hpp"
#include "merge/groups.hpp"

namespace strata::merge {

// Returns one group per digest found under the SURT, sorted by digest; empty when the SURT
// lacks captures or references. Counts what it drops in `counters` (names in docs/merge.md).
std::vector<DigestGroup> merge_surt(SurtGroup& group, Counters& counters);

}  // namespace strata::merge
