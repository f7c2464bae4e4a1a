#include "merge/reference_cap.hpp"

#include <algorithm>
#include <set>
#include <string_view>

#include "merge/order.hpp"

namespace strata::merge {
namespace {

void keep_older(std::map<std::string, PageReference>& by, const std::string& key,
                const PageReference& ref) {
  auto [it, inserted] = by.try_emplace(key, ref);
  if (!inserted && reference_before(ref, it->second)) it->second = ref;
}

bool equivalent(const PageReference& a, const PageReference& b) {
  return !reference_before(a, b) && !reference_before(b, a);
}

}  // namespace

void ReferenceCap::consider_for_extras(const PageReference& ref) {
  keep_older(oldest_by_collection_, ref.collection, ref);
  keep_older(oldest_by_tag_, ref.tag, ref);
}

void ReferenceCap::add(PageReference&& ref) {
  ++added_;
  if (oldest_.size() < cap_) {
    oldest_.push_back(std::move(ref));
    std::push_heap(oldest_.begin(), oldest_.end(), reference_before);
    return;
  }
  if (cap_ == 0 || !reference_before(ref, oldest_.front())) return consider_for_extras(ref);
  std::pop_heap(oldest_.begin(), oldest_.end(), reference_before);
  consider_for_extras(oldest_.back());
  oldest_.back() = std::move(ref);
  std::push_heap(oldest_.begin(), oldest_.end(), reference_before);
}

std::vector<PageReference> ReferenceCap::take(uint64_t& dropped) {
  std::vector<PageReference> kept = std::move(oldest_);
  // Collections and tags the kept references miss get their oldest reference back.
  std::set<std::string_view> collections, tags;
  for (const auto& ref : kept) collections.insert(ref.collection), tags.insert(ref.tag);
  std::vector<PageReference> extras;
  for (auto& [collection, ref] : oldest_by_collection_)
    if (!collections.count(collection)) extras.push_back(std::move(ref));
  for (auto& [tag, ref] : oldest_by_tag_)
    if (!tags.count(tag)) extras.push_back(std::move(ref));
  std::sort(extras.begin(), extras.end(), reference_before);
  extras.erase(std::unique(extras.begin(), extras.end(), equivalent), extras.end());
  for (auto& ref : extras) kept.push_back(std::move(ref));
  std::sort(kept.begin(), kept.end(), reference_before);
  dropped = dropped_before_ + added_ - kept.size();
  *this = ReferenceCap(cap_);
  return kept;
}

}  // namespace strata::merge
