// Archived pages as items (cover/pages.hpp): a WARC of page versions whose minimum cover under
// `pageversions` is known by construction, read through the real extraction; a real crawl.
#include "cover/pages.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <random>

#include "archive/warc_writer.hpp"
#include "cover/cover.hpp"
#include "cover_checks.hpp"
#include "extract/stage.hpp"
#include "similar/page_sketch.hpp"
#include "testing/shared_data.hpp"

namespace strata::cover {
namespace {

struct Truth {
  size_t pages = 0, optimum = 0;
  std::vector<std::string> keepers;  // ids ("TIMESTAMP/URL") of the pages a minimum cover keeps
};

std::string html_page(const std::vector<std::string>& words, size_t url) {
  std::string body = "<html><head><title>Page " + std::to_string(url) +
                     "</title></head><body><nav>menu home about</nav><img src=\"/p" +
                     std::to_string(url) + ".jpg\" alt=\"picture\"><p>";
  for (const auto& w : words) body += w + " ";
  return body + "</p></body></html>";
}

// `urls` pages with 2-6 versions a year apart, each version appending 1-3 words that never
// occurred before, and with probability 0.3 first cutting one word for good. Under
// `same(url),newer,containment(text)>=1` a version covers exactly the older versions of its own
// run (versions since the last cut: appending keeps every 5-word shingle, a cut destroys some
// for good), so the minimum cover is one page per run, the run's newest.
Truth write_page_versions(const std::filesystem::path& warc, size_t urls) {
  std::mt19937_64 rng(24);
  archive::WarcWriter writer(warc);
  Truth truth;
  for (size_t u = 0; u < urls; ++u) {
    const std::string url = "http://site" + std::to_string(u) + ".pt/news.html";
    std::vector<std::string> words;
    size_t fresh = 0;
    auto word = [&] { return "u" + std::to_string(u) + "w" + std::to_string(fresh++); };
    for (int k = 0; k < 20; ++k) words.push_back(word());
    const size_t versions = 2 + rng() % 5;
    std::string previous;
    for (size_t v = 0; v < versions; ++v) {
      const bool cut = v > 0 && rng() % 10 < 3;
      if (cut) {
        truth.keepers.push_back(previous);  // the run before the cut ends here
        words.erase(words.begin() + static_cast<long>(2 + rng() % (words.size() - 4)));
      }
      if (v > 0)
        for (size_t k = 1 + rng() % 3; k > 0; --k) words.push_back(word());
      const std::string date = std::to_string(2001 + v) + "0101120000";
      const std::string body = html_page(words, u);
      writer.write_response(url, date,
                            "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n"
                            "Content-Length: " +
                                std::to_string(body.size()) + "\r\n\r\n" + body);
      previous = date + "/" + url;
      ++truth.pages;
    }
    truth.keepers.push_back(previous);
  }
  truth.optimum = truth.keepers.size();
  std::sort(truth.keepers.begin(), truth.keepers.end());
  return truth;
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
  const Truth truth = write_page_versions(dir / "versions.warc.gz", 30);
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
  const std::string html = html_page({"a1", "b2", "c3", "d4", "e5", "f6", "g7"}, 3);
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
  const Truth truth = write_page_versions(dir / "versions.warc.gz", 4);
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
