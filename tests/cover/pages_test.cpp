// Archived pages as items (cover/pages.hpp): the sample generator's WARC of page versions whose
// minimum cover under `pageversions` is known by construction, read through the real
// extraction; a real crawl.
#include "cover/pages.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <map>

#include "archive/warc_writer.hpp"
#include "cover/cover.hpp"
#include "cover_checks.hpp"
#include "extract/stage.hpp"
#include "sample/cover_world.hpp"
#include "similar/page_sketch.hpp"
#include "testing/shared_data.hpp"

namespace strata::cover {
namespace {

std::string html_page(const std::vector<std::string>& words) {
  std::string body =
      "<html><head><title>Page</title></head><body><nav>menu home about</nav>"
      "<img src=\"/p.jpg\" alt=\"picture\"><p>";
  for (const auto& w : words) body += w + " ";
  return body + "</p></body></html>";
}

std::vector<std::string> kept_ids(const PageItems& p, const CoverResult& r) {
  std::vector<std::string> out;
  for (size_t i = 0; i < r.keeper.size(); ++i)
    if (r.keeper[i] == i) out.push_back(p.pages.ids[i]);
  std::sort(out.begin(), out.end());
  return out;
}

// Extraction of `archives` into `out`; the part files.
std::filesystem::path extract_into(const std::vector<std::filesystem::path>& archives,
                                   const std::filesystem::path& out) {
  std::filesystem::create_directories(out);
  ProblemLog problems;
  extract::ExtractOptions options;
  options.collection = "pages";
  const auto result = extract::run_extraction(archives, options, out, 1, problems.sink(), nullptr);
  EXPECT_EQ(result.unusable, 0u);
  return out;
}

TEST(CoverPages, NewestVersionUnlessAnOlderOneHasTextTheNewerLacks) {
  const std::filesystem::path dir = strata::testing::scratch_dir();
  const auto truth = sample::write_page_versions(24, 30, (dir / "versions.warc.gz").string());
  const auto records = extract_into({dir / "versions.warc.gz"}, dir / "extracted");
  const ExprPtr e = parse("pageversions");
  ProblemLog problems;
  const PageItems p = read_record_pages({records.string()}, attributes_used(*e), problems);
  EXPECT_EQ(problems.total(), 0u);
  ASSERT_EQ(p.pages.items.size(), truth.pages);
  EXPECT_EQ(p.without_text, 0u);
  const CoverResult r = compute_cover(*e, p.pages.items);
  testing::expect_valid(*e, p.pages.items, r);
  EXPECT_EQ(r.kept, truth.optimum);
  EXPECT_EQ(r.lower_bound, truth.optimum);
  EXPECT_EQ(r.greedy_components, 0u);
  EXPECT_EQ(kept_ids(p, r), truth.keepers);
  // Without the text condition every URL keeps its newest version only.
  EXPECT_EQ(compute_cover(*parse("versions"), p.pages.items).kept, 30u);
}

TEST(CoverPages, TextIsTheMainTextShinglesOfTheSketch) {
  const std::string html = html_page({"a1", "b2", "c3", "d4", "e5", "f6", "g7"});
  const auto shingles = similar::page_shingles(html);
  const auto sketch = similar::sketch_html(html);
  ASSERT_TRUE(sketch);
  // "picture" is an alt text, "menu home about" boilerplate, the title in <head>: 7 words of
  // main text, 3 shingles, each one the sketch counted.
  EXPECT_EQ(shingles.size(), 3u);
  EXPECT_EQ(sketch->shingles, 3u);
  EXPECT_TRUE(std::is_sorted(shingles.begin(), shingles.end()));
  EXPECT_TRUE(similar::page_shingles("only four words here").empty());
}

TEST(CoverPages, PagesWhoseRecordIsGoneHaveNoTextAndHideNothing) {
  const std::filesystem::path dir = strata::testing::scratch_dir();
  const auto truth = sample::write_page_versions(24, 4, (dir / "versions.warc.gz").string());
  const auto records = extract_into({dir / "versions.warc.gz"}, dir / "extracted");
  std::filesystem::remove(dir / "versions.warc.gz");
  const ExprPtr e = parse("pageversions");
  ProblemLog problems;
  std::ofstream(dir / "extracted" / "part-99999.jsonl") << "not json\n";
  const PageItems p = read_record_pages({records.string()}, attributes_used(*e), problems);
  EXPECT_EQ(problems.total(), 1u);  // the bad line, with its file and offset
  EXPECT_EQ(p.without_text, truth.pages);
  EXPECT_EQ(compute_cover(*e, p.pages.items).kept, truth.pages);  // missing is false
}

TEST(CoverPages, RealCrawlOfArchiveOrg2008) {
  STRATA_REQUIRE_SHARED();
  const auto warc = strata::testing::shared_data(
      "archives/archivesunleashed__aut/src/test/resources/warc/example.warc.gz");
  const std::filesystem::path dir = strata::testing::scratch_dir();
  const auto records = extract_into({warc}, dir / "extracted");
  const ExprPtr e = parse("pageversions");
  ProblemLog problems;
  const PageItems p = read_record_pages({records.string()}, attributes_used(*e), problems);
  EXPECT_EQ(problems.total(), 0u);
  EXPECT_EQ(p.without_text, 0u);
  ASSERT_GT(p.pages.items.size(), 50u);  // the pages with image references
  const CoverResult r = compute_cover(*e, p.pages.items);
  testing::expect_valid(*e, p.pages.items, r);
  EXPECT_EQ(r.greedy_components, 0u);
  // Every page removed is an older capture of the URL of its keeper, its text all there.
  std::map<std::string, size_t> captures;
  for (const auto& item : p.pages.items) ++captures[*item.get(StringAttr::url)];
  size_t urls_captured_again = 0;
  for (const auto& [url, n] : captures) urls_captured_again += n > 1;
  EXPECT_LE(p.pages.items.size() - r.kept, p.pages.items.size() - captures.size());
  EXPECT_EQ(r.kept,
            compute_cover(*e, p.pages.items, {.spill = {.memory = 4096, .temp = dir}}).kept);
  RecordProperty("pages", static_cast<int>(p.pages.items.size()));
  RecordProperty("kept", static_cast<int>(r.kept));
  RecordProperty("urls_captured_again", static_cast<int>(urls_captured_again));
}

}  // namespace
}  // namespace strata::cover
