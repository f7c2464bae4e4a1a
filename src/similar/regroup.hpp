#pragma once
// Near-duplicate groups brought up to date after some images came, went or changed, without
// regrouping the rest (docs/near-duplicates.md, "Regrouping only what a batch changes"). The
// result is exactly group_near_duplicates' over the same images.
//
// Why it is exact: an image's group depends only on which images before it (in the visiting
// order) within the radius are leaders. The images to regroup are visited in that order; one
// whose leadership changed (it became a leader, stopped being one, or came as one) puts every
// later image within the radius on the list, and only those can change in turn. An image no
// change reached keeps its previous leader: its earlier leaders within the radius are the
// previous ones less the departed, and the caller lists the images whose leader departed.
//
// Failure contract: never throws (beyond std::bad_alloc). Memory: the search table over all
// images (12 bytes per image and table, 5 tables at the default radius) and 8 bytes per image.
#include <cstdint>
#include <span>
#include <vector>

#include "similar/groups.hpp"

namespace strata::similar {

// `previous` marks an image to regroup.
inline constexpr uint32_t kRegroup = 0xffffffffu;

struct Regrouping {
  Grouping grouping;       // as group_near_duplicates(images, radius) returns it
  uint64_t regrouped = 0;  // images whose group was computed again
};

// `previous[i]`: the input index of image i's leader in the previous grouping (i itself for a
// leader or a gated image), or kRegroup when i is new or changed (its previous version counts
// as departed) or its previous leader departed or changed. Every image not marked must be
// unchanged since the previous grouping, which must have been exact. At most 2^32 - 2 images.
Regrouping regroup_near_duplicates(std::span<const Image> images,
                                   std::span<const uint32_t> previous,
                                   int radius = kNearDuplicateRadius);

}  // namespace strata::similar
