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

// Appends `value` unless it equals the last element: values repeated in a row (most references
// of an image share its alt text, caption, tag and collection) then cost one compare each
// instead of a place in the sort that drops duplicates.
template <typename T, typename V>
void append_unless_last(std::vector<T>& values, V&& value) {
  if (values.empty() || !(values.back() == value)) values.emplace_back(std::forward<V>(value));
}

// (value, pageTimestamp where it appeared) pairs, left as the distinct values ordered by the
// earliest time each appeared (ties: lexicographic), at most `cap` (cuts counted).
void order_descriptions(std::vector<std::pair<std::string_view, std::string_view>>& seen,
                        size_t cap, Counters& counters);

// Sets `out` to the distinct non-empty trimmed values of the member `field` over `refs`
// (PageReference or ReferenceView ranges), ordered as order_descriptions does. S: std::string,
// or std::string_view into the references. `out` is filled in place to keep its room.
template <typename S, typename Refs, typename Field>
void collect_descriptions(const Refs& refs, Field field, size_t cap, Counters& counters,
                          std::vector<S>& out) {
  // Reused by every call of the thread (three per document): an allocation each showed in
  // profiles.
  thread_local std::vector<std::pair<std::string_view, std::string_view>> seen;
  seen.clear();
  for (const auto& ref : refs) {
    std::string_view value = trim(ref.*field);
    std::string_view time = ref.pageTimestamp;
    // A repeat at the same or a later time changes nothing (refs come oldest first).
    bool repeat = !seen.empty() && seen.back().first == value && seen.back().second <= time;
    if (!value.empty() && !repeat) seen.emplace_back(value, time);
  }
  order_descriptions(seen, cap, counters);
  out.clear();
  for (const auto& entry : seen) out.emplace_back(entry.first);
}

// Appends the values of `incoming` not already in `existing`, up to `cap` values in all.
// Returns false when some were cut.
bool union_descriptions(std::vector<std::string>& existing,
                        const std::vector<std::string>& incoming, size_t cap);

}  // namespace strata::merge
