// The multi-index Hamming search against a brute-force scan: exact, no duplicates, ordered.
#include "similar/hamming_index.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <random>

namespace strata::similar {
namespace {

// Clusters of hashes a few bits apart, so that every radius has matches.
std::vector<uint64_t> clustered_hashes(size_t clusters, int per_cluster, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<uint64_t> hashes;
  for (size_t c = 0; c < clusters; ++c) {
    uint64_t centre = rng();
    for (int k = 0; k < per_cluster; ++k) {
      uint64_t noise = 0;
      for (int bit = 0, flips = int(rng() % 12); bit < flips; ++bit)
        noise |= uint64_t{1} << (rng() % 64);
      hashes.push_back(centre ^ noise);
    }
  }
  return hashes;
}

std::vector<HammingIndex::Match> brute_force(const std::vector<uint64_t>& hashes, uint64_t query,
                                             int radius) {
  std::vector<HammingIndex::Match> out;
  for (uint32_t i = 0; i < hashes.size(); ++i)
    if (int d = std::popcount(hashes[i] ^ query); d <= radius) out.push_back({i, d});
  std::stable_sort(out.begin(), out.end(),
                   [](const auto& a, const auto& b) { return a.distance < b.distance; });
  return out;
}

TEST(HammingIndex, RangeSearchEqualsBruteForceAtEveryRadius) {
  const auto hashes = clustered_hashes(300, 8, 5);
  std::mt19937_64 rng(9);
  for (int index_radius : {0, 3, 8, 12}) {
    HammingIndex bulk(index_radius, hashes);
    HammingIndex one_by_one(index_radius);
    for (uint64_t h : hashes) one_by_one.add(h);
    ASSERT_EQ(bulk.size(), hashes.size());
    for (int q = 0; q < 200; ++q) {
      uint64_t query = hashes[rng() % hashes.size()] ^ (uint64_t{1} << (rng() % 64));
      for (int r = 0; r <= index_radius; r += 2) {
        auto expected = brute_force(hashes, query, r);
        EXPECT_EQ(bulk.all_within(query, r), expected) << "radius " << r;
        EXPECT_EQ(one_by_one.all_within(query, r), expected) << "radius " << r;
      }
      auto all = brute_force(hashes, query, index_radius);
      uint32_t first = HammingIndex::kNone;
      for (const auto& m : all) first = std::min(first, m.entry);
      EXPECT_EQ(bulk.first_within(query), first);
    }
  }
}

TEST(HammingIndex, LookupsBeyondTheBuiltRadiusAreClamped) {
  const std::vector<uint64_t> hashes{0x0ull, 0xffull, 0xffffull};
  HammingIndex index(8, hashes);
  auto found = index.all_within(0, 40);
  ASSERT_EQ(found.size(), 2u);
  EXPECT_EQ(found[0], (HammingIndex::Match{0, 0}));
  EXPECT_EQ(found[1], (HammingIndex::Match{1, 8}));
  EXPECT_TRUE(HammingIndex(8).all_within(0, 8).empty());
  EXPECT_EQ(HammingIndex(8).first_within(0), HammingIndex::kNone);
}

}  // namespace
}  // namespace strata::similar
