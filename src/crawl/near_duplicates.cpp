#include "crawl/near_duplicates.hpp"

#include <xxhash.h>

#include <algorithm>
#include <cctype>
#include <limits>

namespace strata::crawl {
namespace {

constexpr uint64_t kPrime = (uint64_t{1} << 61) - 1;

__extension__ using Uint128 = unsigned __int128;

// (a·x + b) mod 2^61 − 1 without overflow.
uint64_t permute(uint64_t a, uint64_t b, uint64_t x) {
  Uint128 product = static_cast<Uint128>(a) * (x % kPrime) + b;
  return static_cast<uint64_t>(product % kPrime);
}

// Fixed pseudo-random permutation parameters, the same in every run (sketches compare).
struct Permutations {
  std::array<uint64_t, NearDuplicates::kSketch> a{}, b{};
  Permutations() {
    for (std::size_t i = 0; i < a.size(); ++i) {
      a[i] = XXH3_64bits_withSeed("a", 1, i) % (kPrime - 1) + 1;
      b[i] = XXH3_64bits_withSeed("b", 1, i) % kPrime;
    }
  }
};

std::vector<std::string_view> words(std::string_view text) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
    std::size_t start = i;
    while (i < text.size() && !std::isspace(static_cast<unsigned char>(text[i]))) ++i;
    if (i > start) out.push_back(text.substr(start, i - start));
  }
  return out;
}

}  // namespace

std::optional<NearDuplicates::Sketch> NearDuplicates::sketch(std::string_view text) {
  static const Permutations permutations;
  auto w = words(text);
  if (w.size() < kShingle) return std::nullopt;
  std::array<uint64_t, kSketch> minima;
  minima.fill(std::numeric_limits<uint64_t>::max());
  for (std::size_t s = 0; s + kShingle <= w.size(); ++s) {
    std::string joined;
    for (std::size_t k = 0; k < kShingle; ++k) joined.append(w[s + k]).push_back(' ');
    uint64_t shingle = XXH3_64bits(joined.data(), joined.size());
    for (std::size_t i = 0; i < kSketch; ++i)
      minima[i] = std::min(minima[i], permute(permutations.a[i], permutations.b[i], shingle));
  }
  Sketch out;
  for (std::size_t i = 0; i < kSketch; ++i)
    out[i] = static_cast<uint32_t>(minima[i] ^ (minima[i] >> 32));
  return out;
}

double NearDuplicates::similarity(const Sketch& a, const Sketch& b) {
  std::size_t same = 0;
  for (std::size_t i = 0; i < kSketch; ++i) same += a[i] == b[i];
  return static_cast<double>(same) / kSketch;
}

std::optional<std::string> NearDuplicates::add(std::string_view url, std::string_view text) {
  auto s = sketch(text);
  if (!s) return std::nullopt;
  constexpr std::size_t rows = kSketch / kBands;
  std::optional<std::string> match;
  auto id = static_cast<uint32_t>(sketches_.size());
  for (std::size_t band = 0; band < kBands; ++band) {
    uint64_t key = XXH3_64bits_withSeed(s->data() + band * rows, rows * sizeof(uint32_t), band);
    auto& pages = bands_[key];
    for (uint32_t other : pages)
      if (!match && similarity(*s, sketches_[other]) >= kThreshold) match = urls_[other];
    pages.push_back(id);
  }
  sketches_.push_back(*s);
  urls_.emplace_back(url);
  return match;
}

}  // namespace strata::crawl
