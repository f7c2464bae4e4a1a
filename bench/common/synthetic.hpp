#pragma once
// Pieces of the synthetic extraction records the merge and store benchmarks generate.
#include <cstdint>
#include <cstdio>
#include <string>

namespace strata::bench {

// A 64-hex-digit stand-in for an image's SHA-256: distinct for distinct n, spread in its
// first bytes (the merge sorts and hashes on them) like a real digest.
inline std::string hex_digest(uint64_t n) {
  char buf[65];
  std::snprintf(buf, sizeof buf, "%016llx%048llx",
                static_cast<unsigned long long>(n * 0x9E3779B97F4A7C15ULL),
                static_cast<unsigned long long>(n));
  return buf;
}

}  // namespace strata::bench
