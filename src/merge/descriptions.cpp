#include "merge/descriptions.hpp"

#include <algorithm>
#include <string_view>
#include <unordered_set>
#include <utility>

#include "merge/text.hpp"

namespace strata::merge {

void order_descriptions(std::vector<std::pair<std::string_view, std::string_view>>& seen,
                        size_t cap, Counters& counters) {
  // Sort by value then time so unique() keeps each value's earliest appearance, then
  // re-sort by time. One value (most lists: an image's caption rarely changes) is in order.
  if (seen.size() > 1) {
    std::sort(seen.begin(), seen.end());
    seen.erase(std::unique(seen.begin(), seen.end(),
                           [](const auto& a, const auto& b) { return a.first == b.first; }),
               seen.end());
    std::sort(seen.begin(), seen.end(), [](const auto& a, const auto& b) {
      return a.second != b.second ? a.second < b.second : a.first < b.first;
    });
  }
  if (seen.size() > cap) {
    counters.add("description_lists_capped");
    seen.resize(cap);
  }
}

bool union_descriptions(std::vector<std::string>& existing,
                        const std::vector<std::string>& incoming, size_t cap) {
  std::unordered_set<std::string> have(existing.begin(), existing.end());
  std::vector<std::string> added;
  bool complete = true;
  for (const auto& value : incoming) {
    if (have.count(value)) continue;
    if (existing.size() + added.size() >= cap) {
      complete = false;
      break;
    }
    have.insert(value);
    added.push_back(value);
  }
  for (auto& value : added) existing.push_back(std::move(value));
  return complete;
}

}  // namespace strata::merge
