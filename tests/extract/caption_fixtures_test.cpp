// The three Arquivo caption fixtures (CaptionExtractTest.java) must give exactly the
// captions, alts, titles and SURTs Arquivo's indexer produces, but for the one caption below.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <sstream>

#include "core/json.hpp"
#include "extract/page_extract.hpp"
#include "testing/shared_data.hpp"

namespace strata::extract {
namespace {

std::string read_file(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Where Strata deliberately differs (docs/extraction.md, "Captions"): the text right after
// an image is that image's caption, not also the next image's.
std::string expected_caption(const std::string& file, const std::string& surt, const Json& want) {
  if (file == "pageCaptionSiblings.html" &&
      surt == "(com,andremourao,)/media/me-latin1%c3%a7%c3%a3o.jpg")
    return "This is caption 2 Page 3";  // Arquivo: "This is caption 1 Page 3\nThis is caption 2
                                        // Page 3"
  return want["imgCaption"].get<std::string>();
}

TEST(CaptionFixtures, MatchArquivoExpectedOutput) {
  STRATA_REQUIRE_SHARED();
  Json expected =
      Json::parse(read_file(testing::shared_data("arquivo/caption-extract-expected.json")));
  ASSERT_EQ(expected["cases"].size(), 3u);
  for (const Json& c : expected["cases"]) {
    std::string file = c["file"].get<std::string>();
    file = file.substr(file.rfind('/') + 1);
    std::string html = read_file(testing::shared_data("arquivo/caption-pages/" + file));
    ASSERT_FALSE(html.empty()) << file;
    PageInput in;
    in.url = expected["pageUrl"];
    in.timestamp = expected["pageTimestamp"];
    in.html = html;
    Counters counters;
    std::vector<PageReference> refs = extract_page(in, counters);
    std::map<std::string, const PageReference*> by_surt;
    for (const PageReference& r : refs) by_surt.emplace(r.imgSurt, &r);
    for (const auto& [surt, want] : c["expect"].items()) {
      SCOPED_TRACE(file + " " + surt);
      ASSERT_TRUE(by_surt.count(surt));
      const PageReference& got = *by_surt[surt];
      EXPECT_EQ(got.imgCaption, expected_caption(file, surt, want));
      EXPECT_EQ(got.imgAlt, want["imgAlt"].get<std::string>());
      EXPECT_EQ(got.imgTitle, want["imgTitle"].get<std::string>());
      EXPECT_EQ(got.tag, "img");
      EXPECT_EQ(got.pageTimestamp, "20200101000000");
    }
    EXPECT_EQ(refs.size(), c["expect"].size()) << file;
  }
}

TEST(CaptionFixtures, PageFieldsFilled) {
  STRATA_REQUIRE_SHARED();
  std::string html =
      read_file(testing::shared_data("arquivo/caption-pages/pageCaptionParent.html"));
  PageInput in{
      "https://andremourao.com/static/pages", "20200101000000", "Teste", "a.warc.gz", 10, 20, html};
  Counters counters;
  std::vector<PageReference> refs = extract_page(in, counters);
  ASSERT_EQ(refs.size(), 3u);
  const PageReference& r = refs[2];
  EXPECT_EQ(r.imgUrl, "https://andremourao.com/wp-content/uploads/2013/11/poster-220x220.png");
  EXPECT_EQ(r.pageTitle, "Pages from Hell - Parent Caption");
  EXPECT_EQ(r.pageHost, "andremourao.com");
  EXPECT_EQ(r.imagesInPage, 3);
  EXPECT_EQ(r.collection, "Teste");
  EXPECT_EQ(r.file, "a.warc.gz");
  EXPECT_EQ(r.offset, 10u);
  EXPECT_EQ(r.length, 20u);
  EXPECT_FALSE(r.inline_);
  EXPECT_FALSE(r.imgUrlTokens.empty());
  EXPECT_EQ(counters.get("pages"), 1);
  EXPECT_EQ(counters.get("html_refs_img"), 3);
}

}  // namespace
}  // namespace strata::extract
