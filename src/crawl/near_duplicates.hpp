#pragma once
// Near-duplicate pages, as the CS276 seed describes them (slides 36–48; IIR §19.6): the words
// of a page's text in 5-word shingles, each hashed to 64 bits; a min-hash sketch of 128
// linear permutations (a·x + b mod 2^61 − 1); candidates from LSH over 16 bands of 8 entries;
// near duplicates when at least 80 % of the sketch entries agree (estimated Jaccard ≥ 0.8).
// In memory, about 600 bytes per page; for reporting, never for skipping. Never throws.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace strata::crawl {

class NearDuplicates {
 public:
  static constexpr std::size_t kSketch = 128, kBands = 16, kShingle = 5;
  static constexpr double kThreshold = 0.8;
  using Sketch = std::array<uint32_t, kSketch>;

  // nullopt for a text of fewer than kShingle words.
  static std::optional<Sketch> sketch(std::string_view text);
  static double similarity(const Sketch& a, const Sketch& b);

  // The URL of an earlier page `text` nearly duplicates, if any; the page is remembered.
  std::optional<std::string> add(std::string_view url, std::string_view text);

 private:
  std::vector<Sketch> sketches_;
  std::vector<std::string> urls_;
  std::unordered_map<uint64_t, std::vector<uint32_t>> bands_;  // band hash -> pages
};

}  // namespace strata::crawl
