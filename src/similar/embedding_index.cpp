#include "similar/embedding_index.hpp"

#include <algorithm>
#include <bit>
#include <cmath>

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

}  // namespace

float cosine(const EmbeddingCode& a, const EmbeddingCode& b) {
  return float(dot(a, b)) * inverse_norm(a) * inverse_norm(b);
}

EmbeddingIndex::EmbeddingIndex(std::vector<EmbeddingCode> codes) : codes_(std::move(codes)) {
  inverse_norms_.reserve(codes_.size());
  signs_.reserve(codes_.size());
  for (const EmbeddingCode& code : codes_) {
    inverse_norms_.push_back(inverse_norm(code));
    signs_.push_back(signs_of(code));
  }
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
  return ranked(query, shortlist(signs_of(query), std::max(kEmbeddingShortlist, 10 * k)), k);
}

std::vector<EmbeddingIndex::Match> EmbeddingIndex::nearest_exact(const EmbeddingCode& query,
                                                                 size_t k) const {
  std::vector<uint32_t> all(codes_.size());
  for (size_t i = 0; i < all.size(); ++i) all[i] = static_cast<uint32_t>(i);
  return ranked(query, all, k);
}

}  // namespace strata::similar
