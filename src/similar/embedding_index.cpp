#include "similar/embedding_index.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <system_error>
#include <thread>

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
    const std::array<uint64_t, 2>* signs, uint32_t n, const std::array<uint64_t, 2>& query,
    uint8_t* distances) {
  for (uint32_t i = 0; i < n; ++i)
    distances[i] =
        uint8_t(std::popcount(signs[i][0] ^ query[0]) + std::popcount(signs[i][1] ^ query[1]));
}

using Histogram = std::array<uint32_t, kSignBits + 1>;
using Signs = std::array<uint64_t, 2>;

// The entries of one stretch of the index that may be among the `count` nearest by sign bits,
// found in one pass: each entry's distance is computed into a small buffer block by block, and
// kept with its number when it is within `cut`, the distance of the `count` nearest kept so
// far. The cut only tightens, so what is kept always holds every entry of the stretch that the
// `count` nearest of the whole index can take (a pass that wrote every distance to memory and
// read it twice cost 1.5x more at 10M entries).
class SignScan {
 public:
  struct Kept {
    uint32_t entry;
    uint8_t distance;
  };

  explicit SignScan(size_t count) : count_(count) { kept_.reserve(4 * count_ + kBlock); }

  void scan(const Signs* signs, uint32_t begin, uint32_t end, const Signs& query) {
    std::array<uint8_t, kBlock> distances;
    for (uint32_t block = begin; block < end; block += kBlock) {
      const uint32_t n = std::min<uint32_t>(kBlock, end - block);
      sign_distances(signs + block, n, query, distances.data());
      for (uint32_t i = 0; i < n; ++i)
        if (distances[i] <= cut_) kept_.push_back({block + i, distances[i]});
      if (kept_.size() >= 4 * count_) tighten();
    }
  }

  std::vector<Kept>& kept() { return kept_; }

 private:
  static constexpr uint32_t kBlock = 4096;  // 4 KB of distances: stays in L1

  // Lowers the cut to the distance of the `count` nearest kept so far, and drops the rest.
  void tighten() {
    Histogram histogram{};
    for (const Kept& k : kept_) ++histogram[k.distance];
    size_t nearer = 0;
    int cut = 0;
    while (nearer + histogram[size_t(cut)] < count_) nearer += histogram[size_t(cut++)];
    cut_ = cut;
    std::erase_if(kept_, [cut](const Kept& k) { return k.distance > cut; });
  }

  size_t count_;
  int cut_ = kSignBits;
  std::vector<Kept> kept_;  // in entry order
};

// Entries a scanning thread takes on at least: starting a thread costs about as much as
// scanning 10,000 entries.
constexpr uint32_t kMinEntriesPerScanThread = 100'000;

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

std::vector<uint32_t> EmbeddingIndex::nearest_by_signs(const EmbeddingCode& query, size_t count,
                                                       unsigned threads) const {
  const uint32_t n = size();
  const Signs signs = signs_of(query);
  // Stretches of the index, one thread each (the caller's takes the first).
  threads = std::clamp(threads, 1u, std::max(1u, n / kMinEntriesPerScanThread));
  std::vector<SignScan> scans(threads, SignScan(count));
  std::vector<std::thread> helpers;
  const auto stretch = [&](unsigned t) {
    scans[t].scan(signs_.data(), uint32_t(uint64_t(n) * t / threads),
                  uint32_t(uint64_t(n) * (t + 1) / threads), signs);
  };
  for (unsigned t = 1; t < threads; ++t) {
    try {
      helpers.emplace_back(stretch, t);
    } catch (const std::system_error&) {  // no thread to be had: this one scans it
      stretch(t);
    }
  }
  stretch(0);
  for (auto& h : helpers) h.join();
  std::vector<SignScan::Kept> kept = std::move(scans[0].kept());
  for (unsigned t = 1; t < threads; ++t)
    kept.insert(kept.end(), scans[t].kept().begin(), scans[t].kept().end());
  // The cut over all stretches: every entry nearer than it, and entries at it (lowest numbers
  // first) up to count.
  Histogram histogram{};
  for (const auto& k : kept) ++histogram[k.distance];
  int cut = 0;
  size_t nearer = 0;
  while (cut < kSignBits && nearer + histogram[size_t(cut)] < count)
    nearer += histogram[size_t(cut++)];
  size_t at_cut = count > nearer ? count - nearer : 0;
  std::vector<uint32_t> entries;
  entries.reserve(std::min<size_t>(count, n));
  for (const auto& k : kept) {
    if (k.distance < cut || (k.distance == cut && at_cut > 0)) {
      if (k.distance == cut) --at_cut;
      entries.push_back(k.entry);
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

std::vector<EmbeddingIndex::Match> EmbeddingIndex::nearest(const EmbeddingCode& query, size_t k,
                                                           unsigned threads) const {
  return ranked(query, nearest_by_signs(query, std::max(kEmbeddingShortlist, 10 * k), threads), k);
}

std::vector<EmbeddingIndex::Match> EmbeddingIndex::nearest_exact(const EmbeddingCode& query,
                                                                 size_t k) const {
  std::vector<uint32_t> all(codes_.size());
  for (size_t i = 0; i < all.size(); ++i) all[i] = static_cast<uint32_t>(i);
  return ranked(query, all, k);
}

}  // namespace strata::similar
