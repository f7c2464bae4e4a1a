#pragma once
// imgTitle / imgAlt / imgCaption lists: distinct trimmed values ordered by when they first
// appeared, capped. Shared by job 2 and the cross-collection merge.
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/counters.hpp"
#include "merge/groups.hpp"
#include "merge/text.hpp"

namespace strata::merge {

// (value, pageTimestamp where it appeared) pairs, left as the distinct values ordered by the
// earliest time each appeared (ties: lexicographic), at most `cap` (cuts counted).
void order_descriptions(std::vector<std::pair<std::string_view, std::string_view>>& seen,
                        size_t cap, Counters& counters);

// Distinct non-empty trimmed values of the member `field` over `refs` (PageReference or
// ReferenceView ranges), ordered as order_descriptions does. S: std::string, or
// std::string_view into the references.
template <typename S, typename Refs, typename Field>
std::vector<S> collect_descriptions(const Refs& refs, Field field, size_t cap, Counters& counters) {
  std::vector<std::pair<std::string_view, std::string_view>> seen;
  for (const auto& ref : refs) {
    std::string_view value = trim(ref.*field);
    if (!value.empty()) seen.emplace_back(value, ref.pageTimestamp);
  }
  order_descriptions(seen, cap, counters);
  std::vector<S> out;
  out.reserve(seen.size());
  for (const auto& entry : seen) out.emplace_back(entry.first);
  return out;
}

// Appends the values of `incoming` not already in `existing`, up to `cap` values in all.
// Returns false when some were cut.
bool union_descriptions(std::vector<std::string>& existing,
                        const std::vector<std::string>& incoming, size_t cap);

}  // namespace strata::merge
