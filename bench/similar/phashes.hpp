#pragma once
// Shared by the near-duplicate benchmarks: synthetic pHashes and the process's CPU time.
#include <sys/resource.h>

#include <bit>
#include <cstdint>
#include <random>

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

inline double cpu_seconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_utime.tv_sec + usage.ru_stime.tv_sec +
         (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

}  // namespace strata::bench
