#include "merge/reference_cap.hpp"

#include <algorithm>
#include <set>
#include <string_view>

#include "merge/order.hpp"

namespace strata::merge {
namespace {

template <typename R>
void keep_older(std::map<std::string, R, std::less<>>& by, std::string_view key, const R& ref) {
  auto it = by.find(key);
  if (it == by.end())
    by.emplace(std::string(key), ref);
  else if (reference_before(ref, it->second))
    it->second = ref;
}

template <typename R>
bool equivalent(const R& a, const R& b) {
  return !reference_before(a, b) && !reference_before(b, a);
}

}  // namespace

template <typename R>
void BasicReferenceCap<R>::consider_for_extras(const R& ref) {
  keep_older(oldest_by_collection_, ref.collection, ref);
  keep_older(oldest_by_tag_, ref.tag, ref);
}

template <typename R>
void BasicReferenceCap<R>::add(R&& ref) {
  // Below the cap nothing is dropped, so no order is needed: the heap is built only when
  // the cap is reached (most keys never reach it).
  if (oldest_.size() + 1 < cap_) return emplace(std::move(ref));
  ++added_;
  if (oldest_.size() + 1 == cap_) {
    oldest_.push_back(std::move(ref));
    std::make_heap(oldest_.begin(), oldest_.end(), reference_before);
    return;
  }
  if (cap_ == 0 || !reference_before(ref, oldest_.front())) return consider_for_extras(ref);
  std::pop_heap(oldest_.begin(), oldest_.end(), reference_before);
  consider_for_extras(oldest_.back());
  oldest_.back() = std::move(ref);
  std::push_heap(oldest_.begin(), oldest_.end(), reference_before);
}

// Collections and tags the kept references miss get their oldest reference back.
template <typename R>
void BasicReferenceCap<R>::add_extras(std::vector<R>& kept) {
  std::set<std::string_view> collections, tags;
  for (const auto& ref : kept) collections.insert(ref.collection), tags.insert(ref.tag);
  std::vector<R> extras;
  for (auto& [collection, ref] : oldest_by_collection_)
    if (!collections.count(collection)) extras.push_back(std::move(ref));
  for (auto& [tag, ref] : oldest_by_tag_)
    if (!tags.count(tag)) extras.push_back(std::move(ref));
  std::sort(extras.begin(), extras.end(), reference_before);
  extras.erase(std::unique(extras.begin(), extras.end(), equivalent<R>), extras.end());
  for (auto& ref : extras) kept.push_back(std::move(ref));
}

template <typename R>
std::vector<R> BasicReferenceCap<R>::take_unsorted(uint64_t& dropped) {
  std::vector<R> kept = std::move(oldest_);
  if (!oldest_by_collection_.empty() || !oldest_by_tag_.empty()) add_extras(kept);
  dropped = dropped_before_ + added_ - kept.size();
  *this = BasicReferenceCap(cap_);
  return kept;
}

template <typename R>
std::vector<R> BasicReferenceCap<R>::take(uint64_t& dropped) {
  std::vector<R> kept = take_unsorted(dropped);
  sort_references(kept);
  return kept;
}

template class BasicReferenceCap<PageReference>;
template class BasicReferenceCap<EncodedReference>;

}  // namespace strata::merge
