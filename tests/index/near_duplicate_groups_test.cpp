// Near-duplicate groups in the index (index/near_duplicate_groups.hpp): every member of a
// group carries its leader's pHash (value and term), whatever order and batches the documents
// came in; adding a larger copy moves the group to it; removing a member regroups the rest.
#include "index/near_duplicate_groups.hpp"

#include <gtest/gtest.h>

#include <map>
#include <random>

#include "analyze/phash.hpp"
#include "index/schema.hpp"
#include "index/writer.hpp"
#include "testing/shared_data.hpp"

namespace strata::index {
namespace {

constexpr uint64_t kHash = 0x00ff00ff00ff00ffULL;  // 32 bits set: not a degenerate hash
constexpr uint64_t kOther = 0x0f0f0f0f0f0f0f0fULL;

struct Image {
  std::string id;
  int side = 100;
  uint64_t phash = kHash;
  std::string ts = "20100101000000";
};

merge::ImageDocument document(const Image& image) {
  merge::ImageDocument d;
  d.id = d.imgDigest = image.id;
  d.imgUrl = "http://example.pt/" + image.id + ".jpg";
  d.imgMimeType = "image/jpeg";
  d.imgWidth = d.imgHeight = image.side;
  d.imgCrawlTimestamp = d.imgCrawlTimestampLatest = image.ts;
  d.collection = {"c"};
  return d;
}

// Adds `images` as one batch and regroups.
RegroupReport add_batch(const std::filesystem::path& dir, const std::vector<Image>& images) {
  std::map<std::string, uint64_t> hashes;
  for (const auto& image : images) hashes[image.id] = image.phash;
  IndexWriter writer(dir);
  writer.set_moderate([&](const merge::ImageDocument& d, Moderation& m) {
    m.safe = 0;
    m.phash = hashes.at(d.id);
  });
  writer.begin();
  for (const auto& image : images) writer.add(document(image));
  const RegroupReport report = writer.regroup_near_duplicates(2);
  writer.commit();
  return report;
}

// id -> group leader's pHash in hex ("" alone), checking value and term agree.
std::map<std::string, std::string> groups_of(const std::filesystem::path& dir) {
  Xapian::Database db(dir.string());
  StoredData stored(db);
  std::map<std::string, std::string> out;
  for (auto it = db.postlist_begin(""); it != db.postlist_end(""); ++it) {
    const Xapian::Document xd = db.get_document(*it);
    merge::ImageDocument doc;
    Moderation m;
    EXPECT_TRUE(parse_document_data(stored.unpack(xd.get_data()), doc, m));
    const auto leader = group_leader(xd.get_value(slot::group));
    std::string hex;
    for (auto t = xd.termlist_begin(); t != xd.termlist_end(); ++t)
      if ((*t).rfind(prefix::near_duplicate_group, 0) == 0) hex = (*t).substr(1);
    EXPECT_EQ(leader.has_value(), !hex.empty()) << doc.id;
    if (leader) {
      EXPECT_EQ(group_term(*leader), "Z" + hex) << doc.id;
    }
    out[doc.id] = hex;
  }
  return out;
}

std::vector<Image> images() {
  return {{"a", 100, kHash},
          {"b", 200, kHash ^ 0b11},
          {"c", 150, kHash ^ 0xf0},
          {"d", 100, kOther},
          {"e", 100, kOther ^ 1ULL << 40},
          {"f", 100, 0},
          {"g", 100, kOther ^ 0xffff},
          {"h", 20, kHash}};
}

TEST(NearDuplicateGroupsInIndex, MembersCarryTheirLeadersHash) {
  const auto dir = strata::testing::scratch_dir() / "index";
  const RegroupReport report = add_batch(dir, images());
  EXPECT_EQ(report.hashed, 8u);
  EXPECT_EQ(report.groups, 2u);
  EXPECT_EQ(report.grouped, 5u);
  const auto groups = groups_of(dir);
  const std::string b = analyze::phash_hex(kHash ^ 0b11);  // the largest of a, b, c
  const std::string d = analyze::phash_hex(kOther);        // d and e: equal size, d first by id
  EXPECT_EQ(groups,
            (std::map<std::string, std::string>{{"a", b},
                                                {"b", b},
                                                {"c", b},
                                                {"d", d},
                                                {"e", d},
                                                {"f", ""},     // a blank picture's hash: gated
                                                {"g", ""},     // 16 bits from d: another picture
                                                {"h", ""}}));  // 20 px: too small to hash reliably
  Xapian::Database db(dir.string());
  EXPECT_EQ(db.get_termfreq(group_term(kHash ^ 0b11)), 3u);
}

TEST(NearDuplicateGroupsInIndex, AnyOrderAndSplitOfBatchesGivesTheSameGroups) {
  const auto one_run = strata::testing::scratch_dir() / "one";
  add_batch(one_run, images());
  const auto expected = groups_of(one_run);
  std::mt19937 rng(21);
  for (int trial = 0; trial < 4; ++trial) {
    auto shuffled = images();
    std::shuffle(shuffled.begin(), shuffled.end(), rng);
    const auto dir = strata::testing::scratch_dir() / ("split-" + std::to_string(trial));
    for (size_t i = 0; i < shuffled.size(); i += 3)
      add_batch(dir, {shuffled.begin() + i, shuffled.begin() + std::min(shuffled.size(), i + 3)});
    EXPECT_EQ(groups_of(dir), expected) << "trial " << trial;
  }
}

TEST(NearDuplicateGroupsInIndex, ALargerCopyLeadsAndARemovedLeaderHandsOver) {
  const auto dir = strata::testing::scratch_dir() / "index";
  add_batch(dir, images());
  const RegroupReport added = add_batch(dir, {{"z", 400, kHash ^ 1}});
  EXPECT_EQ(added.changed, 4u);  // a, b, c move to z's group; z joins
  for (const char* id : {"a", "b", "c", "z"})
    EXPECT_EQ(groups_of(dir)[id], analyze::phash_hex(kHash ^ 1)) << id;
  {
    IndexWriter writer(dir);
    writer.begin();
    ASSERT_TRUE(writer.remove("z"));
    ASSERT_TRUE(writer.remove("d"));
    writer.regroup_near_duplicates();
    writer.commit();
  }
  const auto groups = groups_of(dir);
  EXPECT_EQ(groups.at("a"), analyze::phash_hex(kHash ^ 0b11));
  EXPECT_EQ(groups.at("e"), "");  // alone now
}

}  // namespace
}  // namespace strata::index
