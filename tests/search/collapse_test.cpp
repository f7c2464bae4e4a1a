// Near-duplicate collapse (search/collapse.hpp, docs/search.md "Near-duplicate collapse"): one
// result per group by default, showing the group's largest matching member with its count of
// matching members; exact totals; collapse=off and Arquivo's collapse: operator.
#include <gtest/gtest.h>

#include <set>

#include "analyze/phash.hpp"
#include "search/index_parts.hpp"
#include "search/query_text.hpp"
#include "search/spy_tables.hpp"
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

// On a local index the collapsed total is counted from the in-memory group table
// (search/spy_tables.hpp); over remote parts from Xapian's stock spy. Both count alike, and the
// table follows the index's revisions.
TEST_F(CollapseTest, CollapsedTotalFromTheTableEqualsTheSpy) {
  {
    Xapian::Database db(dir_.string());
    ASSERT_NE(group_members_of(db, false), nullptr);
    for (const char* q : {"cat", "dog", "", "cat kitten"}) {
      SearchRequest r;
      r.q = q;
      EXPECT_EQ(search(db, IndexParts(db, false), r).total,
                search(db, IndexParts(db, true), r).total)
          << q;
    }
  }
  SearchRequest r;
  r.q = "cat";
  EXPECT_EQ(run(r).total, 3u);
  add({sized("tiny", 50, "cat")});
  index::IndexWriter writer(dir_);
  writer.begin();
  index::Moderation m;
  m.safe = 0.0;
  m.phash = kHash ^ 7;
  writer.set_moderation("tiny", m);
  writer.regroup_near_duplicates();
  writer.commit();
  EXPECT_EQ(run(r).total, 3u);  // tiny joined the group: still counted once
  r.collapse = false;
  EXPECT_EQ(run(r).total, 5u);
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

// More matches than the results fetched for a page: Xapian alone would count a group once per
// member kept in a result list of the page's size; the total counts every group once.
TEST_F(SearchTest, CollapsedTotalIsExactBeyondTheFetchedResults) {
  constexpr int kGroups = 60, kAlone = 80;
  std::vector<merge::ImageDocument> docs;
  for (int i = 0; i < 2 * kGroups + kAlone; ++i)
    docs.push_back(sized("d" + std::to_string(i), 100 + i, "cat"));
  add(docs);
  index::IndexWriter writer(dir_);
  writer.begin();
  uint64_t state = 1;
  auto next_hash = [&] {  // splitmix64: hashes far apart from one another
    uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  };
  for (int i = 0; i < 2 * kGroups + kAlone; i += i < 2 * kGroups ? 2 : 1) {
    index::Moderation m;
    m.safe = 0.0;
    m.phash = next_hash();
    writer.set_moderation("d" + std::to_string(i), m);
    if (i >= 2 * kGroups) continue;
    m.phash = *m.phash ^ 1;  // its near-duplicate
    writer.set_moderation("d" + std::to_string(i + 1), m);
  }
  writer.regroup_near_duplicates();
  writer.commit();
  for (const unsigned offset : {0u, 100u, 139u}) {
    SearchRequest r;
    r.q = "cat";
    r.offset = offset;
    r.max_items = 1;
    const SearchResult result = run(r);
    EXPECT_EQ(result.total, static_cast<uint64_t>(kGroups + kAlone)) << offset;
    EXPECT_EQ(result.hits.size(), 1u) << offset;
  }
  SearchRequest all;
  all.q = "cat";
  all.max_items = 200;
  std::set<std::string> groups;
  for (const Hit& hit : run(all).hits) groups.insert(hit.group.empty() ? hit.doc.id : hit.group);
  EXPECT_EQ(groups.size(), static_cast<size_t>(kGroups + kAlone));
}

}  // namespace
}  // namespace strata::search::testing
