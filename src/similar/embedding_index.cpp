#include "similar/embedding_index.hpp"

#include <faiss/Clustering.h>
#include <faiss/IndexFlat.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <exception>

namespace strata::similar {
namespace {

// Vectorised by the compiler: 128 int8 products per call.
__attribute__((target_clones("avx2", "default"))) int32_t dot(const EmbeddingCode& a,
                                                              const EmbeddingCode& b) {
  int32_t sum = 0;
  for (size_t i = 0; i < kEmbeddingDims; ++i) sum += int32_t(a[i]) * int32_t(b[i]);
  return sum;
}

float inverse_norm(const EmbeddingCode& code) {
  const int32_t squared = dot(code, code);
  return squared > 0 ? 1.0f / std::sqrt(float(squared)) : 0.0f;
}

constexpr int kSignBits = int(kEmbeddingDims);

// Sign-bit distance of every entry to `query` (vectorised where the CPU counts bits in
// vector registers).
__attribute__((target_clones("arch=icelake-server", "popcnt", "default"))) void sign_distances(
    const std::array<uint64_t, 2>* signs, size_t n, const std::array<uint64_t, 2>& query,
    uint8_t* distances) {
  for (size_t i = 0; i < n; ++i)
    distances[i] =
        uint8_t(std::popcount(signs[i][0] ^ query[0]) + std::popcount(signs[i][1] ^ query[1]));
}

using Histogram = std::array<uint32_t, kSignBits + 1>;

// How many of `distances[0, n)` lie at each distance (four interleaved counts: no
// store-to-load chain).
Histogram histogram_of(const uint8_t* distances, size_t n) {
  std::array<Histogram, 4> partial{};
  size_t i = 0;
  for (; i + 4 <= n; i += 4)
    for (size_t lane = 0; lane < 4; ++lane) ++partial[lane][distances[i + lane]];
  for (; i < n; ++i) ++partial[0][distances[i]];
  Histogram total{};
  for (const auto& p : partial)
    for (size_t d = 0; d < total.size(); ++d) total[d] += p[d];
  return total;
}

// Partitions of a partitioned index, and how many a lookup reads: at 10M entries a lookup
// ranks about 8 / 1024 of them (~80,000), at the threshold about 4,000.
constexpr size_t kPartitions = 1024;
using FaissIdx = faiss::Index::idx_t;
constexpr size_t kProbes = 8;
// k-means trains on this many entries per centroid (an evenly spaced sample), 10 rounds:
// about a second at build, and centroids as good as the whole set's for this use.
constexpr size_t kTrainingPerPartition = 64;

// `count` codes from `first` as unit float vectors, row after row (zeros stay zero).
std::vector<float> unit_rows(const EmbeddingCode* first, size_t count) {
  std::vector<float> rows(count * kEmbeddingDims);
  for (size_t r = 0; r < count; ++r) {
    const float scale = inverse_norm(first[r]);
    for (size_t i = 0; i < kEmbeddingDims; ++i)
      rows[r * kEmbeddingDims + i] = float(first[r][i]) * scale;
  }
  return rows;
}

}  // namespace

float cosine(const EmbeddingCode& a, const EmbeddingCode& b) {
  return float(dot(a, b)) * inverse_norm(a) * inverse_norm(b);
}

EmbeddingIndex::EmbeddingIndex(std::vector<EmbeddingCode> codes, size_t partition_from)
    : codes_(std::move(codes)) {
  inverse_norms_.reserve(codes_.size());
  signs_.reserve(codes_.size());
  for (const EmbeddingCode& code : codes_) {
    inverse_norms_.push_back(inverse_norm(code));
    signs_.push_back(signs_of(code));
  }
  if (codes_.size() >= std::max(partition_from, kPartitions * kTrainingPerPartition)) {
    try {
      partitions_ = partition(codes_);
    } catch (const std::exception&) {
      partitions_ = {};  // faiss failed: lookups scan the sign bits
    }
  }
}

EmbeddingIndex::Partitions EmbeddingIndex::partition(const std::vector<EmbeddingCode>& codes) {
  const size_t n = codes.size(), d = kEmbeddingDims;
  // Spherical k-means (faiss) on an evenly spaced sample: the same centroids every build.
  const size_t sample = kPartitions * kTrainingPerPartition;
  std::vector<EmbeddingCode> picked;
  picked.reserve(sample);
  for (size_t i = 0; i < sample; ++i) picked.push_back(codes[i * n / sample]);
  const std::vector<float> training = unit_rows(picked.data(), sample);
  faiss::ClusteringParameters parameters;
  parameters.niter = 10;
  parameters.spherical = true;
  parameters.max_points_per_centroid = int(kTrainingPerPartition);
  faiss::Clustering clustering(int(d), int(kPartitions), parameters);
  faiss::IndexFlatIP centroids{FaissIdx(d)};
  clustering.train(FaissIdx(sample), training.data(), centroids);
  // Each entry's nearest centroid, in blocks (BLAS matrix products: the bulk of the build).
  std::vector<uint32_t> partition_of(n);
  constexpr size_t kBlock = 1 << 16;
  std::vector<float> distance(kBlock);
  std::vector<FaissIdx> nearest(kBlock);
  for (size_t first = 0; first < n; first += kBlock) {
    const size_t count = std::min(kBlock, n - first);
    const std::vector<float> rows = unit_rows(codes.data() + first, count);
    centroids.search(FaissIdx(count), rows.data(), 1, distance.data(), nearest.data());
    for (size_t r = 0; r < count; ++r)
      partition_of[first + r] = nearest[r] < 0 ? 0 : uint32_t(nearest[r]);
  }
  // Members by partition (a counting sort keeps entry order inside each).
  Partitions p;
  p.centroids = clustering.centroids;
  p.starts.assign(kPartitions + 1, 0);
  for (uint32_t part : partition_of) ++p.starts[part + 1];
  for (size_t i = 1; i <= kPartitions; ++i) p.starts[i] += p.starts[i - 1];
  p.members.resize(n);
  std::vector<uint32_t> next(p.starts.begin(), p.starts.end() - 1);
  for (size_t e = 0; e < n; ++e) p.members[next[partition_of[e]]++] = uint32_t(e);
  return p;
}

std::vector<uint32_t> EmbeddingIndex::probed(const EmbeddingCode& query) const {
  const std::vector<float> q = unit_rows(&query, 1);
  std::vector<std::pair<float, uint32_t>> scores(kPartitions);
  for (size_t c = 0; c < kPartitions; ++c) {
    const float* centroid = partitions_.centroids.data() + c * kEmbeddingDims;
    float score = 0;
    for (size_t i = 0; i < kEmbeddingDims; ++i) score += centroid[i] * q[i];
    scores[c] = {-score, uint32_t(c)};  // ascending = nearest first
  }
  std::partial_sort(scores.begin(), scores.begin() + kProbes, scores.end());
  std::vector<uint32_t> entries;
  for (size_t i = 0; i < kProbes; ++i) {
    const uint32_t c = scores[i].second;
    entries.insert(entries.end(), partitions_.members.begin() + partitions_.starts[c],
                   partitions_.members.begin() + partitions_.starts[c + 1]);
  }
  return entries;
}

EmbeddingIndex::Signs EmbeddingIndex::signs_of(const EmbeddingCode& code) {
  Signs signs{0, 0};
  for (size_t i = 0; i < kEmbeddingDims; ++i)
    if (code[i] < 0) signs[i / 64] |= uint64_t{1} << (i % 64);
  return signs;
}

std::vector<uint32_t> EmbeddingIndex::shortlist(const Signs& query, size_t count) const {
  // Reused by the thread's next lookup: a fresh 10 MB buffer per query costs page faults.
  thread_local std::vector<uint8_t> distances;
  distances.resize(signs_.size());
  sign_distances(signs_.data(), signs_.size(), query, distances.data());
  const Histogram histogram = histogram_of(distances.data(), distances.size());
  // The cut: every entry nearer than it, and entries at it (lowest numbers first) up to count.
  int cut = 0;
  size_t nearer = 0;
  while (cut < kSignBits && nearer + histogram[size_t(cut)] < count)
    nearer += histogram[size_t(cut++)];
  size_t at_cut = count > nearer ? count - nearer : 0;
  std::vector<uint32_t> entries;
  entries.reserve(std::min(count, distances.size()));
  for (size_t i = 0; i < distances.size(); ++i) {
    if (distances[i] < cut || (distances[i] == cut && at_cut > 0)) {
      if (distances[i] == cut) --at_cut;
      entries.push_back(static_cast<uint32_t>(i));
    }
  }
  return entries;
}

std::vector<EmbeddingIndex::Match> EmbeddingIndex::ranked(const EmbeddingCode& query,
                                                          const std::vector<uint32_t>& entries,
                                                          size_t k) const {
  const float query_inverse = inverse_norm(query);
  std::vector<Match> matches;
  matches.reserve(entries.size());
  for (uint32_t e : entries)
    matches.push_back({e, float(dot(query, codes_[e])) * query_inverse * inverse_norms_[e]});
  const auto before = [](const Match& a, const Match& b) {
    return a.cosine != b.cosine ? a.cosine > b.cosine : a.entry < b.entry;
  };
  const size_t kept = std::min(k, matches.size());
  std::partial_sort(matches.begin(), matches.begin() + std::ptrdiff_t(kept), matches.end(), before);
  matches.resize(kept);
  return matches;
}

std::vector<EmbeddingIndex::Match> EmbeddingIndex::nearest(const EmbeddingCode& query,
                                                           size_t k) const {
  if (partitioned()) return ranked(query, probed(query), k);
  return ranked(query, shortlist(signs_of(query), std::max(kEmbeddingShortlist, 10 * k)), k);
}

std::vector<EmbeddingIndex::Match> EmbeddingIndex::nearest_exact(const EmbeddingCode& query,
                                                                 size_t k) const {
  std::vector<uint32_t> all(codes_.size());
  for (size_t i = 0; i < all.size(); ++i) all[i] = static_cast<uint32_t>(i);
  return ranked(query, all, k);
}

}  // namespace strata::similar
