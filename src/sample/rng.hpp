#pragma once
// The generator's only source of randomness: std::mt19937_64 (whose output sequence the C++
// standard fixes) seeded explicitly, with range helpers that do not depend on the standard
// library's distributions (those differ between implementations).
#include <cstdint>
#include <random>
#include <string_view>
#include <vector>

namespace strata::sample {

class Rng {
 public:
  explicit Rng(uint64_t seed) : engine_(seed) {}
  // A child generator for an independent stream (e.g. one per site), stable under changes
  // to how much the parent is used elsewhere.
  static Rng derive(uint64_t seed, std::string_view label, uint64_t index = 0) {
    uint64_t h = 1469598103934665603ull ^ seed;
    for (char c : label) h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ull;
    h ^= index * 0x9E3779B97F4A7C15ull;
    return Rng(mix(h));
  }
  uint64_t next() { return engine_(); }
  // Uniform in [0, n) (n > 0); the bias of the modulo is irrelevant here.
  uint64_t below(uint64_t n) { return n == 0 ? 0 : next() % n; }
  int range(int lo, int hi) {
    return lo + static_cast<int>(below(static_cast<uint64_t>(hi - lo + 1)));
  }
  bool chance(double p) { return static_cast<double>(next() >> 11) * 0x1.0p-53 < p; }
  template <typename T>
  const T& pick(const std::vector<T>& v) {
    return v[below(v.size())];
  }

 private:
  static uint64_t mix(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  std::mt19937_64 engine_;
};

}  // namespace strata::sample
