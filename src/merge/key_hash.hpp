#pragma once
// The 64-bit hash of the merge's keys (SURTs, digests): wyhash (final 4, Wang Yi; public
// domain), default secret, seed 0. It mixes 16 bytes per 64x64->128-bit multiply; libstdc++'s
// std::hash (a Murmur variant, 8 bytes a step, an out-of-line call) took ~190 instructions per
// record in phase 1. The values never leave one merge: any good hash will do, but one hash
// throughout (sorter ranks and digest sightings alike).
#include <cstdint>
#include <cstring>
#include <string_view>

namespace strata::merge {
namespace key_hash_detail {

inline constexpr uint64_t kSecret[4] = {0x2d358dccaa6c78a5ull, 0x8bb84b93962eacc9ull,
                                        0x4b33a62ed433d4a3ull, 0x4d5a2da51de1aa47ull};

__extension__ typedef unsigned __int128 Uint128;  // a GCC/Clang extension (-Wpedantic)

struct Product {
  uint64_t low, high;
};

inline Product multiply(uint64_t a, uint64_t b) {
  Uint128 product = Uint128{a} * b;
  return {static_cast<uint64_t>(product), static_cast<uint64_t>(product >> 64)};
}

// The two halves of a * b, folded together.
inline uint64_t mix(uint64_t a, uint64_t b) {
  Product product = multiply(a, b);
  return product.low ^ product.high;
}

inline uint64_t read8(const char* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}

inline uint64_t read4(const char* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}

// 1 to 3 bytes: the first, middle and last.
inline uint64_t read3(const char* p, size_t n) {
  auto byte = [p](size_t i) { return uint64_t{static_cast<unsigned char>(p[i])}; };
  return byte(0) << 16 | byte(n >> 1) << 8 | byte(n - 1);
}

}  // namespace key_hash_detail

inline uint64_t key_hash(std::string_view key) {
  using namespace key_hash_detail;
  const char* p = key.data();
  size_t n = key.size();
  uint64_t seed = mix(kSecret[0], kSecret[1]);  // seed 0, mixed as wyhash does
  uint64_t a = 0, b = 0;
  if (n <= 16) {
    if (n >= 4) {
      size_t quarter = (n >> 3) << 2;
      a = read4(p) << 32 | read4(p + quarter);
      b = read4(p + n - 4) << 32 | read4(p + n - 4 - quarter);
    } else if (n > 0) {
      a = read3(p, n);
    }
  } else {
    size_t left = n;
    if (left >= 48) {
      uint64_t seed1 = seed, seed2 = seed;
      for (; left >= 48; left -= 48, p += 48) {
        seed = mix(read8(p) ^ kSecret[1], read8(p + 8) ^ seed);
        seed1 = mix(read8(p + 16) ^ kSecret[2], read8(p + 24) ^ seed1);
        seed2 = mix(read8(p + 32) ^ kSecret[3], read8(p + 40) ^ seed2);
      }
      seed ^= seed1 ^ seed2;
    }
    for (; left > 16; left -= 16, p += 16) seed = mix(read8(p) ^ kSecret[1], read8(p + 8) ^ seed);
    a = read8(p + left - 16);
    b = read8(p + left - 8);
  }
  Product product = multiply(a ^ kSecret[1], b ^ seed);
  return mix(product.low ^ kSecret[0] ^ n, product.high ^ kSecret[1]);
}

}  // namespace strata::merge
