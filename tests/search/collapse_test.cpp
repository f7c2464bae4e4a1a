// Near-duplicate collapse (search/collapse.hpp, docs/search.md "Near-duplicate collapse"): one
// result per group by default, showing the group's largest matching member with its count of
// matching members; exact totals; collapse=off and Arquivo's collapse: operator.
#include <gtest/gtest.h>

#include <set>

#include "analyze/phash.hpp"
#include "search/query_text.hpp"
#include "search_fixture.hpp"

namespace strata::search::testing {
namespace {

constexpr uint64_t kHash = 0x00ff00ff00ff00ffULL;

merge::ImageDocument sized(const std::string& id, int side, const std::string& title,
                           const std::string& ts = "20100101000000") {
  auto d = doc(id, ts);
  d.imgWidth = d.imgHeight = side;
  d.imgTitle = {title};
  return d;
}

class CollapseTest : public SearchTest {
 protected:
  // big (300 px, "dog"), mid (200 px) and small (100 px) are one picture; other is another.
  void SetUp() override {
    add({sized("big", 300, "dog"), sized("mid", 200, "cat kitten", "20120101000000"),
         sized("small", 100, "cat", "20140101000000"), sized("other", 100, "cat"),
         sized("plain", 100, "cat")});
    index::IndexWriter writer(dir_);
    writer.begin();
    for (const auto& [id, hash] : std::vector<std::pair<std::string, uint64_t>>{
             {"big", kHash}, {"mid", kHash ^ 1}, {"small", kHash ^ 3}, {"other", ~kHash}}) {
      index::Moderation m;
      m.safe = id == "mid" ? safe_mid_ : 0.0;
      m.phash = hash;
      writer.set_moderation(id, m);
    }
    writer.regroup_near_duplicates();
    writer.commit();
  }
  double safe_mid_ = 0.0;
};

TEST_F(CollapseTest, OneResultPerGroupShowingItsLargestMatchingMember) {
  SearchRequest r;
  r.q = "cat";
  const SearchResult result = run(r);
  EXPECT_EQ(result.total, 3u);  // the group once, other, plain
  std::set<std::string> shown;
  for (const Hit& hit : result.hits) {
    shown.insert(hit.doc.id);
    if (hit.doc.id == "mid") {
      EXPECT_EQ(hit.group_matches, 2u);  // mid and small match "cat"; big does not
      EXPECT_EQ(hit.group_size, 3u);
      EXPECT_EQ(hit.moderation.phash, kHash ^ 1);
    } else {
      EXPECT_EQ(hit.group_size, 1u) << hit.doc.id;
    }
  }
  EXPECT_EQ(shown, (std::set<std::string>{"mid", "other", "plain"}));
  // Years count images: small's 2014 is there although small is folded into mid.
  EXPECT_EQ(result.years, (decltype(result.years){{"2010", 2}, {"2012", 1}, {"2014", 1}}));
}

TEST_F(CollapseTest, AllImagesWhenTurnedOff) {
  SearchRequest r;
  r.q = "cat";
  r.collapse = false;
  EXPECT_EQ(run(r).total, 4u);
  EXPECT_EQ(ids("cat collapse:off").size(), 4u);
  EXPECT_EQ(ids("cat collapse:imgDigest").size(), 4u);  // Arquivo's collapse on the digest
  EXPECT_EQ(ids("cat collapse:groupId").size(), 3u);
  r.collapse_fixed = true;
  r.q = "cat collapse:on";  // a caller's parameter wins
  EXPECT_EQ(run(r).total, 4u);
  EXPECT_THROW(ids("cat collapse:pageHost"), RequestError);
}

TEST_F(CollapseTest, EveryPageShowsOtherGroups) {
  std::set<std::string> seen;
  for (unsigned offset = 0; offset < 3; ++offset) {
    SearchRequest r;
    r.q = "cat";
    r.offset = offset;
    r.max_items = 1;
    const auto page = ids(r);
    ASSERT_EQ(page.size(), 1u);
    seen.insert(page[0]);
  }
  EXPECT_EQ(seen.size(), 3u);
}

TEST_F(CollapseTest, TheGroupOperatorListsEveryMember) {
  const std::string group = analyze::phash_hex(kHash);  // big leads: the largest
  EXPECT_EQ(ids("group:" + group).size(), 3u);
  EXPECT_EQ(ids("cat group:" + group).size(), 2u);
  EXPECT_THROW(ids("group:xyz"), RequestError);
}

class CollapseUnderSafeSearchTest : public CollapseTest {
 protected:
  void SetUp() override {
    safe_mid_ = 0.9;
    CollapseTest::SetUp();
  }
};

TEST_F(CollapseUnderSafeSearchTest, AHiddenMemberIsNeverShownNorCounted) {
  SearchRequest r;
  r.q = "cat";
  const SearchResult result = run(r);
  ASSERT_EQ(result.total, 3u);
  for (const Hit& hit : result.hits) {
    EXPECT_NE(hit.doc.id, "mid");
    if (hit.doc.id == "small") {
      EXPECT_EQ(hit.group_matches, 1u);
    }
  }
}

}  // namespace
}  // namespace strata::search::testing
