#pragma once
// imgTitle / imgAlt / imgCaption lists: distinct trimmed values ordered by when they first
// appeared, capped. Shared by job 2 and the cross-collection merge.
#include <string>
#include <vector>

#include "core/counters.hpp"
#include "merge/groups.hpp"

namespace strata::merge {

using DescriptionField = std::string PageReference::*;

// Distinct non-empty trimmed values of `field` over `refs`, ordered by the earliest
// pageTimestamp each appeared at (ties: lexicographic), at most `cap` (cuts counted).
std::vector<std::string> collect_descriptions(const std::vector<PageReference>& refs,
                                              DescriptionField field, size_t cap,
                                              Counters& counters);

// Appends the values of `incoming` not already in `existing`, up to `cap` values in all.
// Returns false when some were cut.
bool union_descriptions(std::vector<std::string>& existing,
                        const std::vector<std::string>& incoming, size_t cap);

}  // namespace strata::merge
