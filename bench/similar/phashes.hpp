#pragma once
// Shared by the near-duplicate benchmarks: synthetic pHashes (and latency.hpp's CPU time).
#include <bit>
#include <cstdint>
#include <random>

#include "latency.hpp"

namespace strata::bench {

// A hash with 32 of 64 bits set, as the pHash of any picture with detail has.
inline uint64_t balanced_hash(std::mt19937_64& rng) {
  uint64_t hash = 0;
  while (std::popcount(hash) < 32) hash |= uint64_t{1} << (rng() % 64);
  return hash;
}

// `hash` with `bits` distinct random bits flipped.
inline uint64_t near_copy(uint64_t hash, int bits, std::mt19937_64& rng) {
  uint64_t mask = 0;
  while (std::popcount(mask) < bits) mask |= uint64_t{1} << (rng() % 64);
  return hash ^ mask;
}

}  // namespace strata::bench
