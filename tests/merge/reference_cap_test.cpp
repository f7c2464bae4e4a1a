#include "merge/reference_cap.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include "fixtures.hpp"
#include "merge/document.hpp"
#include "merge/pipeline.hpp"
#include "merge/surt_merge.hpp"
#include "testing/shared_data.hpp"

namespace strata::merge {
namespace {

using testing::capture;
using testing::ref;

const std::string kLogo = "(pt,site,)/logo.gif";
const std::string kLogoUrl = "http://site.pt/logo.gif";
const std::string kDigest(64, 'a');

// Page i of a popular logo: one per day from 2010, collection C<i % 3>; the newest page is
// the only one in collection LATE and the only one with tag "css".
std::vector<PageReference> logo_pages(int n) {
  std::vector<PageReference> out;
  for (int i = 0; i < n; ++i) {
    char ts[15];
    std::snprintf(ts, sizeof ts, "2010%02d%02d%06d", 1 + i / 10000 % 12, 1 + i / 400 % 25, i % 400);
    auto r = ref(kLogo, kLogoUrl, "http://site.pt/p" + std::to_string(i), ts, "logo",
                 i == n - 1 ? "LATE" : "C" + std::to_string(i % 3));
    if (i == n - 1) r.tag = "css";
    out.push_back(r);
  }
  return out;
}

// The page URLs kept, oldest first.
std::vector<std::string> capped(std::vector<PageReference> refs, size_t cap, uint64_t& dropped) {
  ReferenceCap keep(cap);
  for (auto& r : refs) keep.add(std::move(r));
  std::vector<std::string> pages;
  for (const auto& r : keep.take(dropped)) pages.push_back(r.pageUrl);
  return pages;
}

TEST(ReferenceCap, KeepsOldestAndOneOfEachCollectionAndTagWhateverTheOrder) {
  auto refs = logo_pages(20);
  uint64_t dropped = 0, dropped_reversed = 0;
  auto kept = capped(refs, 5, dropped);
  std::reverse(refs.begin(), refs.end());
  EXPECT_EQ(capped(refs, 5, dropped_reversed), kept);
  // 5 oldest (p0..p4 cover C0, C1, C2 and tag img) + the LATE/css page.
  ASSERT_EQ(kept.size(), 6u);
  EXPECT_EQ(kept.front(), "http://site.pt/p0");
  EXPECT_EQ(kept.back(), "http://site.pt/p19");  // the LATE / css page
  EXPECT_EQ(dropped, 14u);
  EXPECT_EQ(dropped_reversed, 14u);
}

TEST(ReferenceCap, UnderTheCapKeepsEverythingIncludingDuplicates) {
  auto refs = logo_pages(3);
  refs.push_back(refs[1]);
  uint64_t dropped = 7;
  ReferenceCap keep(10);
  keep.add_dropped(2);
  for (auto r : refs) keep.add(std::move(r));
  EXPECT_EQ(keep.take(dropped).size(), 4u);
  EXPECT_EQ(dropped, 2u);
}

TEST(ReferenceCap, SurtMergerWantsCapturesBeforeReferences) {
  Counters counters;
  SurtMerger merger(counters);
  merger.add(Record(logo_pages(1)[0]));
  EXPECT_THROW(merger.add(Record(capture(kLogo, kLogoUrl, "20100101000000", kDigest))),
               std::logic_error);
}

std::string merge_logo(unsigned jobs, uint64_t memory, Counters& counters) {
  std::vector<Record> records;
  records.emplace_back(capture(kLogo, kLogoUrl, "20091231000000", kDigest));
  // The same image under a second URL: its references meet the logo's in job 2.
  records.push_back(
      capture("(pt,site,)/logo2.gif", "http://site.pt/logo2.gif", "20100101000000", kDigest));
  for (auto& r : logo_pages(kMaxReferencesPerKey + 50)) records.emplace_back(std::move(r));
  for (int i = 0; i < 30; ++i)
    records.emplace_back(ref("(pt,site,)/logo2.gif", "http://site.pt/logo2.gif",
                             "http://other.pt/" + std::to_string(i), "20150101000000", "other"));
  std::vector<Source> sources;
  for (unsigned k = 0; k < jobs; ++k)
    sources.push_back([&records, k, jobs](const RecordEmit& emit, Counters&) {
      for (size_t i = k; i < records.size(); i += jobs) emit(records[i]);
    });
  MergeOptions options;
  options.jobs = jobs;
  options.memory = memory;
  options.work_dir = strata::testing::scratch_dir() / "work";
  std::ostringstream out;
  counters = run_merge(sources, options, out);
  return out.str();
}

TEST(ReferenceCap, PopularLogoKeepsExactCountersOldestPageAndEveryCollection) {
  Counters counters, spilled;
  std::string docs = merge_logo(1, uint64_t{1} << 30, counters);
  EXPECT_EQ(merge_logo(3, 200'000, spilled), docs);  // threads and spilling change nothing
  EXPECT_GT(spilled.get("spilled_runs"), 0);
  ImageDocument doc;
  ASSERT_TRUE(from_json(Json::parse(docs.substr(0, docs.find('\n'))), doc));
  EXPECT_EQ(doc.matchingPages, static_cast<int64_t>(kMaxReferencesPerKey + 50 + 30));
  EXPECT_EQ(doc.matchingImages, 2);
  EXPECT_EQ(doc.pageUrl, "http://site.pt/p0");
  EXPECT_EQ(doc.collection, (std::vector<std::string>{"C0", "C1", "C2", "LATE"}));
  EXPECT_EQ(doc.tags, (std::vector<std::string>{"css", "img"}));
  // logo2's 30 pages (2015) are newer than the 10,000 kept: counted, not described.
  EXPECT_EQ(doc.imgAlt, (std::vector<std::string>{"logo"}));
  EXPECT_GT(counters.get("references_dropped"), 0);
  EXPECT_GT(counters.get("reference_lists_capped"), 0);
}

}  // namespace
}  // namespace strata::merge
