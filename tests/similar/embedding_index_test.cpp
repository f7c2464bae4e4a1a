// Visual nearest neighbours over int8 codes: the cosine, the exact scan's order, and the
// sign-bit shortlist's recall against it on clustered codes bigger than the shortlist.
#include "similar/embedding_index.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>

namespace strata::similar {
namespace {

EmbeddingCode filled(int8_t value) {
  EmbeddingCode c;
  c.fill(value);
  return c;
}

TEST(EmbeddingCosine, IdenticalOppositeAndZero) {
  EmbeddingCode a{};
  for (size_t i = 0; i < kEmbeddingDims; ++i) a[i] = int8_t(int(i % 17) - 8);
  EmbeddingCode minus_a{};
  for (size_t i = 0; i < kEmbeddingDims; ++i) minus_a[i] = int8_t(-a[i]);
  EXPECT_NEAR(cosine(a, a), 1.0f, 1e-6);
  EXPECT_NEAR(cosine(a, minus_a), -1.0f, 1e-6);
  EXPECT_EQ(cosine(a, filled(0)), 0.0f);
  EXPECT_NEAR(cosine(filled(3), filled(100)), 1.0f, 1e-6);  // scale does not matter
}

// `centres` random directions, `per_centre` noisy copies of each.
std::vector<EmbeddingCode> clustered(size_t centres, size_t per_centre, int noise, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> value(-127, 127), jitter(-noise, noise);
  std::vector<EmbeddingCode> out;
  for (size_t c = 0; c < centres; ++c) {
    EmbeddingCode centre;
    for (auto& v : centre) v = int8_t(value(rng));
    for (size_t k = 0; k < per_centre; ++k) {
      EmbeddingCode copy;
      for (size_t i = 0; i < kEmbeddingDims; ++i)
        copy[i] = int8_t(std::clamp(centre[i] + jitter(rng), -127, 127));
      out.push_back(copy);
    }
  }
  return out;
}

TEST(EmbeddingIndex, ExactScanIsOrderedByCosineThenEntry) {
  const auto codes = clustered(5, 4, 60, 1);
  const EmbeddingIndex index(codes);
  ASSERT_EQ(index.size(), 20u);
  const auto found = index.nearest_exact(codes[6], 20);
  ASSERT_EQ(found.size(), 20u);
  EXPECT_EQ(found[0].entry, 6u);
  EXPECT_NEAR(found[0].cosine, 1.0f, 1e-6);
  for (size_t k = 1; k < found.size(); ++k) {
    EXPECT_GE(found[k - 1].cosine, found[k].cosine);
    EXPECT_NEAR(found[k].cosine, cosine(codes[6], codes[found[k].entry]), 1e-6);
  }
  // Its cluster (entries 4..7) comes first.
  EXPECT_EQ((std::set<uint32_t>{found[0].entry, found[1].entry, found[2].entry, found[3].entry}),
            (std::set<uint32_t>{4, 5, 6, 7}));
  // Fewer entries than the shortlist: the shortlist is everything, the same answer.
  const auto shortlisted = index.nearest(codes[6], 20);
  ASSERT_EQ(shortlisted.size(), found.size());
  for (size_t k = 0; k < found.size(); ++k) EXPECT_EQ(shortlisted[k].entry, found[k].entry);
}

// The sign bits of a code, as the index keeps them: bit i set when dimension i is negative.
int sign_distance(const EmbeddingCode& a, const EmbeddingCode& b) {
  int d = 0;
  for (size_t i = 0; i < kEmbeddingDims; ++i) d += (a[i] < 0) != (b[i] < 0);
  return d;
}

TEST(EmbeddingIndex, OnePassShortlistIsTheNearestBySignsLowestNumbersFirstAtTies) {
  // Few distinct codes, so that many entries tie at every distance and the cut falls inside a
  // tie; enough entries that the cut tightens many times during the pass, and that three
  // threads each take a stretch.
  const auto centres = clustered(40, 1, 0, 3);
  std::vector<EmbeddingCode> codes;
  for (size_t i = 0; i < 300'000; ++i) codes.push_back(centres[(i * 7919) % centres.size()]);
  const EmbeddingIndex index(codes);
  for (uint32_t q : {0u, 123'457u}) {
    std::vector<int> distance_of_centre;
    for (const auto& c : centres) distance_of_centre.push_back(sign_distance(codes[q], c));
    std::vector<uint32_t> by_distance(codes.size());
    for (uint32_t i = 0; i < by_distance.size(); ++i) by_distance[i] = i;
    const auto distance = [&](uint32_t i) {
      return distance_of_centre[(i * 7919) % centres.size()];
    };
    std::stable_sort(by_distance.begin(), by_distance.end(),
                     [&](uint32_t a, uint32_t b) { return distance(a) < distance(b); });
    for (size_t count : {0, 1, 999, 2010, 299'999, 400'000}) {
      std::vector<uint32_t> reference(by_distance.begin(),
                                      by_distance.begin() + std::min(count, codes.size()));
      std::sort(reference.begin(), reference.end());
      for (unsigned threads : {1u, 3u})
        EXPECT_EQ(index.nearest_by_signs(codes[q], count, threads), reference)
            << count << " " << q << " " << threads;
    }
  }
}

TEST(EmbeddingIndex, ShortlistRecallAgainstExactScan) {
  const auto codes = clustered(2000, 10, 90, 2);  // 20000 entries, 20x the shortlist
  const EmbeddingIndex index(codes);
  size_t kept = 0, total = 0;
  for (uint32_t q = 0; q < codes.size(); q += 997) {
    std::set<uint32_t> exact;
    for (const auto& m : index.nearest_exact(codes[q], 10)) exact.insert(m.entry);
    for (const auto& m : index.nearest(codes[q], 10)) kept += exact.count(m.entry);
    total += exact.size();
  }
  EXPECT_GE(double(kept) / double(total), 0.9) << kept << " of " << total;
}

TEST(EmbeddingIndex, EmptyAndZeroCodes) {
  const EmbeddingIndex empty;
  EXPECT_TRUE(empty.nearest(filled(1), 10).empty());
  const EmbeddingIndex zeros(std::vector<EmbeddingCode>(3, filled(0)));
  const auto found = zeros.nearest(filled(5), 2);
  ASSERT_EQ(found.size(), 2u);
  EXPECT_EQ(found[0].entry, 0u);
  EXPECT_EQ(found[0].cosine, 0.0f);
}

}  // namespace
}  // namespace strata::similar
