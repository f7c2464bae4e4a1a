#pragma once
// The 64-bit hash of the merge's keys (SURTs, digests): XXH3 from Debian's libxxhash, inlined
// (a dozen instructions for a short key). libstdc++'s std::hash (a Murmur variant, 8 bytes a
// step, an out-of-line call) took ~190 instructions per record in phase 1. The values never
// leave one merge: any good hash will do, but one hash throughout (sorter ranks and digest
// sightings alike).
#include <cstdint>
#include <string_view>

#define XXH_INLINE_ALL
#include <xxhash.h>

namespace strata::merge {

inline uint64_t key_hash(std::string_view key) {
  return XXH3_64bits(key.data(), key.size());
}

}  // namespace strata::merge
