// Leader clustering of pHashes: order independence, no chains, the gate, and the exact search
// against a brute-force reference.
#include "similar/groups.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>

namespace strata::similar {
namespace {

// Flips `bits` distinct random bits of `hash`.
uint64_t flip(uint64_t hash, int bits, std::mt19937_64& rng) {
  uint64_t mask = 0;
  while (std::popcount(mask) < bits) mask |= uint64_t{1} << (rng() % 64);
  return hash ^ mask;
}

// A hash with 32 bits set, like the pHash of a picture with detail.
uint64_t balanced_hash(std::mt19937_64& rng) {
  uint64_t hash = 0;
  while (std::popcount(hash) < 32) hash |= uint64_t{1} << (rng() % 64);
  return hash;
}

std::vector<Image> planted_set(size_t originals, int copies, int max_distance, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<Image> images;
  for (size_t i = 0; i < originals; ++i) {
    uint64_t hash = balanced_hash(rng);
    for (int c = 0; c <= copies; ++c) {
      int side = 400 - 50 * c;
      images.push_back({"d" + std::to_string(i) + "-" + std::to_string(c),
                        c == 0 ? hash : flip(hash, int(rng() % (max_distance + 1)), rng), side,
                        side, int64_t(1'000'000 + rng() % 1000)});
    }
  }
  return images;
}

// digest -> its leader's digest.
std::map<std::string, std::string> leaders_by_digest(const std::vector<Image>& images,
                                                     const Grouping& g) {
  std::map<std::string, std::string> out;
  for (size_t i = 0; i < images.size(); ++i) out[images[i].digest] = images[g.leader[i]].digest;
  return out;
}

TEST(NearDuplicateGroups, ShuffledInputGivesIdenticalGroups) {
  auto images = planted_set(2000, 3, 4, 7);
  Grouping first = group_near_duplicates(images);
  auto expected = leaders_by_digest(images, first);
  std::mt19937_64 rng(11);
  for (int round = 0; round < 3; ++round) {
    std::shuffle(images.begin(), images.end(), rng);
    Grouping again = group_near_duplicates(images);
    EXPECT_EQ(leaders_by_digest(images, again), expected);
    EXPECT_EQ(again.groups, first.groups);
    EXPECT_EQ(again.grouped, first.grouped);
  }
  EXPECT_EQ(first.groups, 2000u);  // copies within 4 bits of an original of 32 set bits
  EXPECT_EQ(first.grouped, 8000u);
}

TEST(NearDuplicateGroups, LeaderIsLargestThenOldestAndGroupsDoNotChain) {
  uint64_t a = 0x00000000FFFFFFFFull;
  uint64_t b = a ^ 0x7Full;          // 7 bits from a
  uint64_t c = b ^ 0x7F00000000ull;  // 7 from b, 14 from a
  std::vector<Image> images = {{"c", c, 100, 100, 0}, {"b", b, 200, 200, 5}, {"a", a, 300, 300, 9}};
  Grouping g = group_near_duplicates(images, 7);
  EXPECT_EQ(g.leader, (std::vector<uint32_t>{0, 2, 2}));  // c is no member: b is not a leader
  EXPECT_EQ(g.size, (std::vector<uint32_t>{1, 2, 2}));
  EXPECT_EQ(g.groups, 1u);

  // Same area: the oldest capture leads; an unknown capture comes last.
  std::vector<Image> same_size = {{"x", a, 50, 50, 0}, {"y", b, 50, 50, 20}, {"z", a, 50, 50, 10}};
  EXPECT_EQ(group_near_duplicates(same_size).leader, (std::vector<uint32_t>{2, 2, 2}));
}

TEST(NearDuplicateGroups, PdqKeepsApartWhatPhashAloneWouldJoin) {
  const uint64_t a = 0x00000000FFFFFFFFull, b = a ^ 0x3ull;  // 2 bits apart
  const std::array<uint64_t, 4> picture{}, other{~0ull, 0, 0, 0x1ull};  // 65 bits apart
  const std::array<uint64_t, 4> close{0xFFFFFFFFull, 0xFFFFFFFFull, 0, 0};  // 64 from picture
  // Two leaders within the pHash radius: the first disagrees by PDQ, so the image joins the
  // second.
  std::vector<Image> images = {{"big", a, 400, 400, 0, other},
                               {"mid", b, 300, 300, 0, picture},
                               {"new", a, 100, 100, 0, picture}};
  EXPECT_EQ(group_near_duplicates(images).leader, (std::vector<uint32_t>{0, 1, 1}));
  // At kPdqMemberRadius they agree; an image without PDQ is grouped by pHash alone.
  images[0].pdq = close;
  EXPECT_EQ(group_near_duplicates(images).leader, (std::vector<uint32_t>{0, 0, 0}));
  images[0].pdq = other;
  images[2].pdq.reset();
  EXPECT_EQ(group_near_duplicates(images).leader, (std::vector<uint32_t>{0, 1, 0}));
}

TEST(NearDuplicateGroups, FlatAndTinyImagesAreGatedNotGrouped) {
  EXPECT_EQ(gate(0, 500, 500), Gate::degenerate_hash);
  EXPECT_EQ(gate(~uint64_t{0}, 500, 500), Gate::degenerate_hash);
  EXPECT_EQ(gate(0x8000000000000F01ull, 500, 500), Gate::degenerate_hash);
  EXPECT_EQ(gate(0x00000000FFFFFFFFull, 31, 500), Gate::too_small);
  EXPECT_EQ(gate(0x00000000FFFFFFFFull, 0, 0), Gate::ok);  // size unknown

  std::vector<Image> images;
  for (int i = 0; i < 1000; ++i)
    images.push_back({"blank" + std::to_string(i), uint64_t{1} << (i % 64), 640, 480, 0});
  for (int i = 0; i < 10; ++i)
    images.push_back({"icon" + std::to_string(i), 0x00000000FFFFFFFFull, 16, 16, 0});
  Grouping g = group_near_duplicates(images);
  EXPECT_EQ(g.groups, 0u);
  EXPECT_EQ(g.degenerate, 1000u);
  EXPECT_EQ(g.too_small, 10u);
}

// The plain definition: visit in order, compare with every leader so far.
std::vector<uint32_t> brute_force_leaders(const std::vector<Image>& images, int radius) {
  std::vector<uint32_t> order(images.size()), leaders, leader(images.size());
  std::iota(order.begin(), order.end(), 0u);
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    return images[a].width * images[a].height > images[b].width * images[b].height ||
           (images[a].width * images[a].height == images[b].width * images[b].height &&
            images[a].digest < images[b].digest);
  });
  for (uint32_t i : order) {
    leader[i] = i;
    if (gate(images[i]) != Gate::ok) continue;
    for (uint32_t l : leaders)
      if (std::popcount(images[l].phash ^ images[i].phash) <= radius) {
        leader[i] = l;
        break;
      }
    if (leader[i] == i) leaders.push_back(i);
  }
  return leader;
}

TEST(NearDuplicateGroups, MultiIndexSearchIsExactOnAnyNumberOfThreads) {
  for (int radius : {0, 3, 8, 10}) {
    // Copies up to twice the radius apart, so that many fall just outside it; more images
    // than one batch, so that both the index and the batch's own leaders are searched.
    auto images = planted_set(2000, 4, 2 * radius + 1, 100 + radius);
    for (auto& image : images) image.first_capture = 0;
    const auto expected = brute_force_leaders(images, radius);
    for (unsigned threads : {1u, 3u})
      EXPECT_EQ(group_near_duplicates(images, radius, threads).leader, expected)
          << "radius " << radius << ", threads " << threads;
  }
}

}  // namespace
}  // namespace strata::similar
