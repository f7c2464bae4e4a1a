// Every capture date is searchable: the date filter matches a document when any of its
// capture times lies in the range, and the years facet counts every year it was captured.
#include <algorithm>
#include <random>
#include <set>

#include "search/dates.hpp"
#include "search/index_parts.hpp"
#include "search/spy_tables.hpp"
#include "search_fixture.hpp"

namespace strata::search::testing {
namespace {

using Y = std::vector<std::pair<std::string, uint64_t>>;

merge::ImageDocument captured(const std::string& id, std::vector<std::string> times) {
  auto d = doc(id, times.front());
  d.imgCrawlTimestampLatest = times.back();
  d.imgCaptureTimes = std::move(times);
  return d;
}

class CaptureDates : public SearchTest {
 protected:
  void SetUp() override {
    add({captured("twice", {"20080315103000", "20210704120000"}),
         captured("once", {"20120101000000"}),
         // First capture long before its two captures of one day: the sub-day checks read
         // its stored capture times.
         captured("sameday", {"20190101000000", "20200229080000", "20200229180000"})});
  }
  V between(const std::string& from, const std::string& to) {
    SearchRequest r;
    if (!from.empty()) r.from = parse_lower_bound(from);
    if (!to.empty()) r.to = parse_upper_bound(to);
    return ids(r);
  }
};

TEST_F(CaptureDates, AnyCaptureInTheRangeMatches) {
  EXPECT_EQ(between("2021", ""), (V{"twice"}));
  EXPECT_EQ(between("2008", "2008"), (V{"twice"}));
  EXPECT_EQ(between("2010", "2015"), (V{"once"}));
  EXPECT_EQ(between("2020", "2021"), (V{"twice", "sameday"}));
  EXPECT_EQ(between("200803", "202106"), (V{"twice", "once", "sameday"}));
  EXPECT_EQ(between("200804", "202106"), (V{"once", "sameday"}));
  EXPECT_EQ(between("", "2008"), (V{"twice"}));
  EXPECT_EQ(between("", "2007"), V{});
  EXPECT_EQ(between("2030", ""), V{});
  EXPECT_EQ(between("2022", "2030"), V{});
}

TEST_F(CaptureDates, SubDayBoundsAreExact) {
  EXPECT_EQ(between("20200229120000", "20200229235959"), (V{"sameday"}));
  EXPECT_EQ(between("20200229180001", "2020"), V{});
  EXPECT_EQ(between("20200229180000", "20200229180000"), (V{"sameday"}));
  EXPECT_EQ(between("20200229", "20200229080000"), (V{"sameday"}));
  EXPECT_EQ(between("20200229080001", "20200229175959"), V{});
  EXPECT_EQ(between("20200228120000", "20200301000000"), (V{"sameday"}));
  EXPECT_EQ(between("20210704120000", "20210704120000"), (V{"twice"}));
  EXPECT_EQ(between("20210704120001", ""), V{});
  EXPECT_EQ(between("20080315103001", "20210704115959"), (V{"once", "sameday"}));
}

TEST_F(CaptureDates, YearsFacetCountsEveryYearCaptured) {
  EXPECT_EQ(run(SearchRequest{}).years,
            (Y{{"2008", 1}, {"2012", 1}, {"2019", 1}, {"2020", 1}, {"2021", 1}}));
  SearchRequest r;
  r.from = parse_lower_bound("2020");
  EXPECT_EQ(run(r).years, (Y{{"2008", 1}, {"2019", 1}, {"2020", 1}, {"2021", 1}}));
}

// The facet of a local index comes from the in-memory table (search/spy_tables.hpp); over
// remote parts from Xapian's stock spies on the year slots. Both count alike.
TEST_F(CaptureDates, YearsFacetFromTheTableEqualsTheSlots) {
  std::vector<merge::ImageDocument> more;
  std::mt19937 rng(7);
  for (int i = 0; i < 300; ++i) {
    std::vector<std::string> times;
    for (int y = 1996 + static_cast<int>(rng() % 28), n = 1 + static_cast<int>(rng() % 4);
         n > 0 && y <= 2024; --n, y += 1 + static_cast<int>(rng() % 3))
      times.push_back(std::to_string(y) + "0601000000");
    more.push_back(captured("more" + std::to_string(i), times));
  }
  add(more);
  Xapian::Database db(dir_.string());
  ASSERT_NE(capture_years_of(db, false), nullptr);
  EXPECT_EQ(capture_years_of(db, true), nullptr);
  for (const char* from : {"", "2000", "2015"}) {
    SearchRequest r;
    if (*from) r.from = parse_lower_bound(from);
    const auto table = search(db, IndexParts(db, false), r).years;
    EXPECT_EQ(table, search(db, IndexParts(db, true), r).years) << from;
    EXPECT_GT(table.size(), 8u);
  }
}

// A new revision of the index gets a new table.
TEST_F(CaptureDates, YearsFacetFollowsTheIndexRevision) {
  EXPECT_EQ(run(SearchRequest{}).years.size(), 5u);
  add({captured("later", {"20230101000000"})});
  EXPECT_EQ(run(SearchRequest{}).years,
            (Y{{"2008", 1}, {"2012", 1}, {"2019", 1}, {"2020", 1}, {"2021", 1}, {"2023", 1}}));
}

// Random captures and random bounds of every precision against a direct check.
class CaptureDatesRandom : public SearchTest {};

std::string random_time(std::mt19937& rng) {
  char buf[16];
  const int year = std::uniform_int_distribution(2019, 2021)(rng);
  const int month = std::uniform_int_distribution(1, 12)(rng);
  const int day = std::uniform_int_distribution(1, days_in_month(year, month))(rng);
  std::snprintf(buf, sizeof buf, "%04d%02d%02d%02d%02d%02d", year, month, day,
                std::uniform_int_distribution(0, 23)(rng),
                std::uniform_int_distribution(0, 59)(rng),
                std::uniform_int_distribution(0, 59)(rng));
  return buf;
}

TEST_F(CaptureDatesRandom, MatchesADirectCheckOfEveryCapture) {
  std::mt19937 rng(18);
  std::vector<merge::ImageDocument> docs;
  for (int i = 0; i < 40; ++i) {
    std::vector<std::string> times;
    for (int k = std::uniform_int_distribution(1, 4)(rng); k > 0; --k)
      times.push_back(random_time(rng));
    std::sort(times.begin(), times.end());
    docs.push_back(captured("d" + std::to_string(i), times));
  }
  add(docs);
  static constexpr size_t kPrecisions[] = {4, 6, 8, 10, 12, 14};
  for (int q = 0; q < 200; ++q) {
    std::string a = random_time(rng), b = random_time(rng);
    if (a > b) std::swap(a, b);
    SearchRequest r;
    r.max_items = 100;
    r.from = parse_lower_bound(a.substr(0, kPrecisions[rng() % 6]));
    r.to = parse_upper_bound(b.substr(0, kPrecisions[rng() % 6]));
    if (q % 7 == 0) r.from.reset();
    if (q % 11 == 0) r.to.reset();
    std::set<std::string> expected;
    for (const auto& d : docs)
      for (const auto& t : d.imgCaptureTimes)
        if ((!r.from || t >= *r.from) && (!r.to || t <= *r.to)) expected.insert(d.id);
    const V got = ids(r);
    EXPECT_EQ(std::set<std::string>(got.begin(), got.end()), expected)
        << r.from.value_or("-") << " .. " << r.to.value_or("-");
  }
}

}  // namespace
}  // namespace strata::search::testing
