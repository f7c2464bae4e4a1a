#include "similar/groups.hpp"

#include <algorithm>
#include <atomic>
#include <bit>
#include <functional>
#include <limits>
#include <numeric>
#include <thread>

#include "similar/hamming_index.hpp"

namespace strata::similar {
namespace {

constexpr uint32_t kNone = HammingIndex::kNone;

// The position of the first of `leaders` (input indices; `hashes`: their pHashes) within
// `radius` of `image`'s pHash whose PDQ agrees, or kNone.
__attribute__((target_clones("popcnt", "default"))) uint32_t first_within(
    std::span<const Image> images, const std::vector<uint32_t>& leaders,
    const std::vector<uint64_t>& hashes, const Image& image, int radius) {
  for (size_t k = 0; k < hashes.size(); ++k)
    if (std::popcount(hashes[k] ^ image.phash) <= radius && pdq_agrees(images[leaders[k]], image))
      return static_cast<uint32_t>(k);
  return kNone;
}

// Calls look(k) for k in [0, n) on `threads` threads.
void in_parallel(size_t n, unsigned threads, const std::function<void(size_t)>& look) {
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t k; (k = next.fetch_add(64)) < n;)
      for (size_t end = std::min(n, k + 64); k < end; ++k) look(k);
  };
  std::vector<std::jthread> helpers;
  for (unsigned t = 1; t < threads; ++t) helpers.emplace_back(work);
  work();
}

constexpr size_t kBatch = 4096;

void join(Grouping& result, uint32_t image, uint32_t leader) {
  result.leader[image] = leader;
  if (result.size[leader]++ == 1)
    ++result.groups, result.grouped += 2;
  else
    ++result.grouped;
}

}  // namespace

// The remaining fields only order exact duplicates of a digest, so that even those cannot
// depend on input order.
bool visits_before(const Image& a, const Image& b) {
  int64_t area_a = int64_t{a.width} * a.height, area_b = int64_t{b.width} * b.height;
  if (area_a != area_b) return area_a > area_b;
  auto capture = [](const Image& i) {
    return i.first_capture > 0 ? i.first_capture : std::numeric_limits<int64_t>::max();
  };
  if (capture(a) != capture(b)) return capture(a) < capture(b);
  if (a.digest != b.digest) return a.digest < b.digest;
  if (a.phash != b.phash) return a.phash < b.phash;
  return a.width < b.width;
}

bool pdq_agrees(const Image& a, const Image& b) {
  if (!a.pdq || !b.pdq) return true;
  int distance = 0;
  for (size_t w = 0; w < 4; ++w) distance += std::popcount((*a.pdq)[w] ^ (*b.pdq)[w]);
  return distance <= kPdqMemberRadius;
}

Gate gate(uint64_t phash, int width, int height) {
  int bits = std::popcount(phash);
  if (bits < kMinBitsSet || bits > 64 - kMinBitsSet) return Gate::degenerate_hash;
  bool size_known = width > 0 && height > 0;
  if (size_known && std::min(width, height) < kMinSide) return Gate::too_small;
  return Gate::ok;
}

Grouping group_near_duplicates(std::span<const Image> images, int radius, unsigned threads) {
  Grouping result;
  result.leader.resize(images.size());
  std::iota(result.leader.begin(), result.leader.end(), uint32_t{0});
  result.size.assign(images.size(), 1);

  std::vector<uint32_t> order;
  for (uint32_t i = 0; i < images.size(); ++i) {
    switch (gate(images[i])) {
      case Gate::ok:
        order.push_back(i);
        break;
      case Gate::degenerate_hash:
        ++result.degenerate;
        break;
      case Gate::too_small:
        ++result.too_small;
        break;
    }
  }
  std::sort(order.begin(), order.end(),
            [&](uint32_t a, uint32_t b) { return visits_before(images[a], images[b]); });

  // Visits in batches: each image of a batch is first looked up among the leaders of earlier
  // batches (in parallel; those precede any leader of its own batch), and only when none is
  // within the radius among the batch's own new leaders, in visiting order.
  const int r = std::clamp(radius, 0, 63);
  HammingIndex index(r);               // the leaders found so far
  std::vector<uint32_t> leader_image;  // leader number -> input index
  std::vector<uint32_t> found(kBatch);
  std::vector<uint32_t> batch_leaders;  // input indices
  std::vector<uint64_t> batch_hashes;   // their pHashes
  for (size_t begin = 0; begin < order.size(); begin += kBatch) {
    const size_t n = std::min(kBatch, order.size() - begin);
    in_parallel(n, std::max(1u, threads), [&](size_t k) {
      const Image& image = images[order[begin + k]];
      found[k] = index.first_within(image.phash, [&](uint32_t leader) {
        return pdq_agrees(images[leader_image[leader]], image);
      });
    });
    const size_t first_new = leader_image.size();
    batch_leaders.clear();
    batch_hashes.clear();
    for (size_t k = 0; k < n; ++k) {
      const uint32_t i = order[begin + k];
      uint32_t leader = found[k];
      if (leader == kNone) {
        uint32_t in_batch = first_within(images, batch_leaders, batch_hashes, images[i], r);
        if (in_batch != kNone) leader = static_cast<uint32_t>(first_new + in_batch);
      }
      if (leader == kNone) {
        batch_leaders.push_back(i);
        batch_hashes.push_back(images[i].phash);
        leader_image.push_back(i);
        continue;
      }
      join(result, i, leader_image[leader]);
    }
    for (uint64_t hash : batch_hashes) index.add(hash);
  }
  for (uint32_t i : order) result.size[i] = result.size[result.leader[i]];
  return result;
}

}  // namespace strata::similar
