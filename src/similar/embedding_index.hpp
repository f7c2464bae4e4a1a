#pragma once
// Visual nearest neighbours over compact image embeddings (analyze/embedding.hpp makes them):
// 128 signed bytes per image, compared by cosine. A lookup scans every entry's 128 sign bits
// by Hamming distance (16 bytes per entry, POPCNT, in one pass), keeps a shortlist of the nearest,
// and ranks it by the int8 cosine (docs/similarity.md). The shortlist makes it approximate:
// bench/similar measures its recall against the exact int8 scan, which nearest_exact() is.
//
// Failure contract: never throws (beyond std::bad_alloc). Lookups may run on several threads
// at once. Memory: 144 bytes per entry, and about 100 KB per lookup.
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace strata::similar {

inline constexpr size_t kEmbeddingDims = 128;
using EmbeddingCode = std::array<int8_t, kEmbeddingDims>;

// Entries a lookup re-ranks by cosine, at least: recall@10 against the exact scan stays
// above 0.9 on the judged set and on synthetic clusters (docs/similarity.md).
inline constexpr size_t kEmbeddingShortlist = 1000;

// The cosine of two codes (0 when either is all zeros).
float cosine(const EmbeddingCode& a, const EmbeddingCode& b);

class EmbeddingIndex {
 public:
  struct Match {
    uint32_t entry = 0;
    float cosine = 0;
  };

  EmbeddingIndex() = default;
  // Entries numbered by position.
  explicit EmbeddingIndex(std::vector<EmbeddingCode> codes);

  uint32_t size() const { return static_cast<uint32_t>(codes_.size()); }
  const EmbeddingCode& code(uint32_t entry) const { return codes_[entry]; }

  // The `k` entries of highest cosine to `query` among the max(kEmbeddingShortlist, 10 k)
  // nearest by sign bits, highest first, then by number (`threads`: as nearest_by_signs()).
  std::vector<Match> nearest(const EmbeddingCode& query, size_t k, unsigned threads = 0) const;
  // The shortlist: the `count` entries nearest `query` by sign-bit distance, the lowest numbers
  // first among those at the same distance, in entry order. One pass over 16 bytes an entry,
  // split among `threads` threads (0 or 1: the caller's alone; measured at 10M entries on a
  // loaded 2-core machine, two threads answered later than one: docs/similarity.md).
  std::vector<uint32_t> nearest_by_signs(const EmbeddingCode& query, size_t count,
                                         unsigned threads = 0) const;
  // The `k` entries of highest cosine over all entries (the reference for nearest()).
  std::vector<Match> nearest_exact(const EmbeddingCode& query, size_t k) const;

 private:
  using Signs = std::array<uint64_t, 2>;
  static Signs signs_of(const EmbeddingCode& code);
  std::vector<Match> ranked(const EmbeddingCode& query, const std::vector<uint32_t>& entries,
                            size_t k) const;

  std::vector<EmbeddingCode> codes_;
  std::vector<float> inverse_norms_;
  std::vector<Signs> signs_;
};

}  // namespace strata::similar
