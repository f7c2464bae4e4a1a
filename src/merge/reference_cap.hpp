#pragma once
// The per-key cap: a hugely popular key (a site logo referenced by millions of pages) must not
// hold all its references in memory. ReferenceCap keeps the `cap` oldest references (total
// order of order.hpp), plus the oldest reference of every collection and of every tag among
// the others, so `collection` and `tags` stay complete; the rest are only counted. The kept
// set depends only on the multiset of references added, never on their order.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "merge/groups.hpp"

namespace strata::merge {

inline constexpr size_t kMaxReferencesPerKey = 10'000;

class ReferenceCap {
 public:
  explicit ReferenceCap(size_t cap = kMaxReferencesPerKey) : cap_(cap) {}
  void add(PageReference&& ref);
  // References dropped earlier (by job 1), counted with this key's.
  void add_dropped(uint64_t count) { dropped_before_ += count; }
  // The kept references, oldest first; `dropped` = references added or counted but not kept.
  // Leaves the cap empty.
  std::vector<PageReference> take(uint64_t& dropped);

 private:
  void consider_for_extras(const PageReference& ref);

  size_t cap_;
  uint64_t added_ = 0;
  uint64_t dropped_before_ = 0;
  std::vector<PageReference> oldest_;  // max-heap by reference_before: newest kept on top
  std::map<std::string, PageReference> oldest_by_collection_, oldest_by_tag_;
};

}  // namespace strata::merge
