// Regrouping only what changed gives exactly the whole regroup: random sets of images in
// chains of near-duplicates (so that leadership cascades), changed step by step by adding,
// removing and changing images (pHash, PDQ, size, first capture), each step's result the next one's
// previous grouping.
#include "similar/regroup.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <set>

namespace strata::similar {
namespace {

uint64_t flip(uint64_t hash, int bits, std::mt19937_64& rng) {
  for (int b = 0; b < bits; ++b) hash ^= uint64_t{1} << (rng() % 64);
  return hash;
}

// Images along random walks of a few bits a step: neighbours within the radius overlap, so a
// new leader can take members from a later one, whose other members then move on.
class World {
 public:
  explicit World(uint64_t seed) : rng_(seed) {
    for (int c = 0; c < 6; ++c) {
      uint64_t hash = 0;
      while (std::popcount(hash) < 32) hash |= uint64_t{1} << (rng_() % 64);
      centres_.push_back(hash);
    }
  }
  Image fresh() {
    static constexpr int kSides[] = {20, 64, 100, 100, 300};
    Image image;
    image.digest = "d" + std::to_string(next_++);
    uint64_t& centre = centres_[rng_() % centres_.size()];
    centre = flip(centre, int(rng_() % 5), rng_);
    image.phash = rng_() % 40 ? centre : 0xffULL;  // now and then a degenerate hash
    image.width = image.height = kSides[rng_() % 5];
    image.first_capture = rng_() % 7 ? int64_t(100 + rng_() % 4) : 0;
    image.pdq = some_pdq();
    return image;
  }
  // No PDQ now and then, else one of two pictures far apart by PDQ: pHash neighbours that PDQ
  // keeps apart.
  std::optional<std::array<uint64_t, 4>> some_pdq() {
    switch (rng_() % 5) {
      case 0:
        return std::nullopt;
      case 1:
        return std::array<uint64_t, 4>{~0ull, ~0ull, 0, 0};
      default:
        return std::array<uint64_t, 4>{0, 0, 0, 0};
    }
  }
  void change(Image& image) {
    switch (rng_() % 4) {
      case 0:
        image.phash = flip(image.phash, 1 + int(rng_() % 6), rng_);
        break;
      case 1:
        image.width = image.height = image.width + 50;
        break;
      case 2:
        image.pdq = some_pdq();
        break;
      default:
        image.first_capture = int64_t(100 + rng_() % 4);
    }
  }
  std::mt19937_64& rng() { return rng_; }

 private:
  std::mt19937_64 rng_;
  std::vector<uint64_t> centres_;
  uint64_t next_ = 0;
};

// The leader's digest per image digest ("" for a gated image).
std::map<std::string, std::string> leaders(const std::vector<Image>& images, const Grouping& g) {
  std::map<std::string, std::string> out;
  for (size_t i = 0; i < images.size(); ++i)
    out[images[i].digest] = gate(images[i]) == Gate::ok ? images[g.leader[i]].digest : "";
  return out;
}

TEST(Regroup, EveryStepEqualsTheWholeRegroup) {
  uint64_t regrouped = 0, cascades = 0, total = 0;
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    World world(seed);
    std::map<std::string, Image> current;                // by digest
    std::map<std::string, std::string> previous_leader;  // digest -> leader digest
    for (int step = 0; step < 25; ++step) {
      std::set<std::string> marked;  // new or changed
      const int adds = int(world.rng()() % 12), removes = int(world.rng()() % 4),
                changes = int(world.rng()() % 4);
      for (int k = 0; k < adds; ++k) {
        Image image = world.fresh();
        marked.insert(image.digest);
        current[image.digest] = image;
      }
      for (int k = 0; k < removes + changes && !current.empty(); ++k) {
        auto it = std::next(current.begin(), long(world.rng()() % current.size()));
        if (k < removes) {
          current.erase(it);
        } else {
          world.change(it->second);
          marked.insert(it->first);
        }
      }
      std::vector<Image> images;
      for (const auto& [digest, image] : current) images.push_back(image);
      std::shuffle(images.begin(), images.end(), world.rng());
      std::map<std::string, uint32_t> index;
      for (uint32_t i = 0; i < images.size(); ++i) index[images[i].digest] = i;
      std::vector<uint32_t> previous(images.size(), kRegroup);
      for (uint32_t i = 0; i < images.size(); ++i) {
        const auto& digest = images[i].digest;
        if (marked.count(digest)) continue;
        const std::string& leader = previous_leader.at(digest);
        if (leader.empty())
          previous[i] = i;  // gated
        else if (index.count(leader) && !marked.count(leader))
          previous[i] = index[leader];
      }
      const Regrouping incremental = regroup_near_duplicates(images, previous);
      const Grouping whole = group_near_duplicates(images);
      const auto expected = leaders(images, whole);
      ASSERT_EQ(leaders(images, incremental.grouping), expected) << seed << " " << step;
      ASSERT_EQ(incremental.grouping.size, whole.size);
      ASSERT_EQ(incremental.grouping.groups, whole.groups);
      ASSERT_EQ(incremental.grouping.grouped, whole.grouped);
      ASSERT_EQ(incremental.grouping.degenerate, whole.degenerate);
      ASSERT_EQ(incremental.grouping.too_small, whole.too_small);
      regrouped += incremental.regrouped;
      total += images.size();
      cascades += incremental.regrouped > marked.size();
      previous_leader = expected;
    }
  }
  // The steps regrouped part of the images, and changes spread beyond the marked ones.
  EXPECT_LT(regrouped, total / 2);
  EXPECT_GT(cascades, 25u);
}

TEST(Regroup, NothingMarkedKeepsEveryGroup) {
  World world(7);
  std::vector<Image> images;
  for (int i = 0; i < 200; ++i) images.push_back(world.fresh());
  const Grouping whole = group_near_duplicates(images);
  const Regrouping again = regroup_near_duplicates(images, whole.leader);
  EXPECT_EQ(again.regrouped, 0u);
  EXPECT_EQ(again.grouping.leader, whole.leader);
  EXPECT_EQ(again.grouping.groups, whole.groups);
}

}  // namespace
}  // namespace strata::similar
