#pragma once
// Visual nearest neighbours over compact image embeddings (analyze/embedding.hpp makes them):
// 128 signed bytes per image, compared by cosine (docs/similarity.md). Two ways to find them:
// - up to `partition_from` entries, a lookup scans every entry's 128 sign bits by Hamming
//   distance (16 bytes per entry, POPCNT), keeps a shortlist of the nearest, and ranks the
//   shortlist by the int8 cosine;
// - from `partition_from` entries on (an inverted file: the scan above reads 16 bytes of
//   every entry, 160 MB a lookup at 10M), the entries are split among kPartitions k-means
//   centroids of their unit vectors (faiss's k-means and its BLAS assignment, at build), and
//   a lookup ranks by int8 cosine only the entries of the kProbes partitions whose
//   centroids are nearest the query.
// Both are approximate: bench/similar measures their recall against the exact int8 scan,
// which nearest_exact() is.
//
// Failure contract: never throws (beyond std::bad_alloc): when the partitions cannot be built
// (faiss fails), lookups scan sign bits as below the threshold. Lookups may run on several
// threads at once. Memory: 144 bytes per entry (148 when partitioned), and 1 byte per entry
// per thread that looks up.
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

// From this many entries on, lookups go through partitions (below it the sign-bit scan of
// every entry costs at most a few milliseconds).
inline constexpr size_t kEmbeddingPartitionFrom = 500'000;

// The cosine of two codes (0 when either is all zeros).
float cosine(const EmbeddingCode& a, const EmbeddingCode& b);

class EmbeddingIndex {
 public:
  struct Match {
    uint32_t entry = 0;
    float cosine = 0;
  };

  EmbeddingIndex() = default;
  // Entries numbered by position; partitioned when there are at least `partition_from`.
  explicit EmbeddingIndex(std::vector<EmbeddingCode> codes,
                          size_t partition_from = kEmbeddingPartitionFrom);

  uint32_t size() const { return static_cast<uint32_t>(codes_.size()); }
  bool partitioned() const { return !partitions_.starts.empty(); }
  const EmbeddingCode& code(uint32_t entry) const { return codes_[entry]; }

  // The `k` entries of highest cosine to `query`, highest first, then by number: among the
  // max(kEmbeddingShortlist, 10 k) nearest by sign bits, or, partitioned, among the entries
  // of the partitions nearest the query.
  std::vector<Match> nearest(const EmbeddingCode& query, size_t k) const;
  // The `k` entries of highest cosine over all entries (the reference for nearest()).
  std::vector<Match> nearest_exact(const EmbeddingCode& query, size_t k) const;

 private:
  using Signs = std::array<uint64_t, 2>;
  static Signs signs_of(const EmbeddingCode& code);
  // The entries whose sign-bit distance to `query` is within the cut that keeps about `count`.
  std::vector<uint32_t> shortlist(const Signs& query, size_t count) const;
  std::vector<Match> ranked(const EmbeddingCode& query, const std::vector<uint32_t>& entries,
                            size_t k) const;

  // Entries grouped by their nearest centroid: partition p holds
  // members[starts[p], starts[p + 1]). Empty when not partitioned.
  struct Partitions {
    std::vector<float> centroids;  // kPartitions unit vectors of kEmbeddingDims
    std::vector<uint32_t> starts;
    std::vector<uint32_t> members;
  };
  static Partitions partition(const std::vector<EmbeddingCode>& codes);
  // The members of the partitions whose centroids are nearest `query`.
  std::vector<uint32_t> probed(const EmbeddingCode& query) const;

  std::vector<EmbeddingCode> codes_;
  Partitions partitions_;
  std::vector<float> inverse_norms_;
  std::vector<Signs> signs_;
};

}  // namespace strata::similar
