#pragma once
// The per-key cap: a hugely popular key (a site logo referenced by millions of pages) must not
// hold all its references in memory. ReferenceCap keeps the `cap` oldest references (total
// order of order.hpp), plus the oldest reference of every collection and of every tag among
// the others, so `collection` and `tags` stay complete; the rest are only counted. The kept
// set depends only on the multiset of references added, never on their order.
#include <algorithm>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "merge/codec.hpp"
#include "merge/groups.hpp"

namespace strata::merge {

inline constexpr size_t kMaxReferencesPerKey = 10'000;
// Room reserved at a key's first reference: growing 1, 2, 4, 8 moved each (a few hundred
// bytes in run_merge) up to three times.
inline constexpr size_t kTypicalReferencesPerKey = 8;

// R: PageReference, or EncodedReference (run_merge's reducers).
template <typename R>
class BasicReferenceCap {
 public:
  explicit BasicReferenceCap(size_t cap = kMaxReferencesPerKey) : cap_(cap) {}
  void add(R&& ref);
  // The same for the reference R(args...), built in place while below the cap.
  template <typename... Args>
  void emplace(Args&&... args) {
    if (oldest_.size() + 1 >= cap_) return add(R(std::forward<Args>(args)...));
    ++added_;
    if (oldest_.empty()) oldest_.reserve(std::min(cap_, kTypicalReferencesPerKey));
    oldest_.emplace_back(std::forward<Args>(args)...);
  }
  // References dropped earlier (by job 1), counted with this key's.
  void add_dropped(uint64_t count) { dropped_before_ += count; }
  // The kept references, oldest first; `dropped` = references added or counted but not kept.
  // Leaves the cap empty.
  std::vector<R> take(uint64_t& dropped);
  // The same in no particular order, for a caller that sorts them later or never needs the
  // order (job 1 hands a shared digest's references to job 2, which sorts them anyway).
  std::vector<R> take_unsorted(uint64_t& dropped);

 private:
  void consider_for_extras(const R& ref);
  void add_extras(std::vector<R>& kept);

  size_t cap_;
  uint64_t added_ = 0;
  uint64_t dropped_before_ = 0;
  std::vector<R> oldest_;  // once full, a max-heap by reference_before
  std::map<std::string, R, std::less<>> oldest_by_collection_, oldest_by_tag_;
};

using ReferenceCap = BasicReferenceCap<PageReference>;

}  // namespace strata::merge
