// EPUB images on the real books in ../shared/data/books, against the research note's counts.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>

#include "books/epub.hpp"
#include "books/epub_warc.hpp"
#include "books/extract.hpp"
#include "core/json.hpp"
#include "testing/shared_data.hpp"
#include "url/url.hpp"

namespace strata::books {
namespace {

EpubBook shared_epub(const std::string& relative) {
  return read_epub(testing::shared_data("books/" + relative));
}

int count_if(const EpubBook& b, bool (*pred)(const EpubImage&)) {
  return static_cast<int>(std::count_if(b.images.begin(), b.images.end(), pred));
}

// Every use of every image in the spine.
int total_uses(const EpubBook& b) {
  int uses = 0;
  for (const auto& i : b.images) uses += i.uses;
  return uses;
}

TEST(Epub, AliceHasTwentyEightIllustrationsOneUsedTwiceOneNever) {
  STRATA_REQUIRE_SHARED();
  const EpubBook b = shared_epub("futurepress__epub.js/test/fixtures/alice.epub");
  EXPECT_EQ(b.images.size(), 28u);
  // 28 <img>, all with alt, but i015 is shown twice and i016 (in the manifest) never.
  EXPECT_EQ(total_uses(b), 28);
  const auto find = [&](const std::string& path) {
    return *std::find_if(b.images.begin(), b.images.end(),
                         [&](const EpubImage& i) { return i.path == path; });
  };
  EXPECT_EQ(find("OPS/images/i015_th.jpg").uses, 2);
  EXPECT_EQ(find("OPS/images/i016_th.jpg").uses, 0);
  EXPECT_EQ(count_if(b, [](const EpubImage& i) { return i.uses > 0 && !i.alt.empty(); }), 27);
  EXPECT_EQ(find("OPS/images/plate04_th.jpg").alt, "The Trial of the Knave of Hearts.");
  EXPECT_FALSE(b.title.empty());
  // Its <meta name="cover"> names no item; the cover is the cover-image item.
  EXPECT_TRUE(find("OPS/images/cover_th.jpg").cover);
  EXPECT_EQ(count_if(b, [](const EpubImage& i) { return i.cover; }), 1);
  EXPECT_EQ(count_if(b, [](const EpubImage& i) { return !i.caption.empty(); }) > 0, true);
  EXPECT_EQ(b.missing_documents, 0);
}

TEST(Epub, FixedLayoutBookUsesFortyOneImagesSevenHundredEightyOneTimes) {
  STRATA_REQUIRE_SHARED();
  const EpubBook b = shared_epub("IDPF__epub3-samples/30/GhV-oeb-page.epub");
  EXPECT_EQ(b.images.size(), 41u);
  EXPECT_EQ(total_uses(b), 781);
}

TEST(Epub, ColeVoyageOfLifeAltTexts) {
  STRATA_REQUIRE_SHARED();
  const EpubBook b = shared_epub("IDPF__epub3-samples/30/cole-voyage-of-life.epub");
  EXPECT_EQ(b.images.size(), 9u);
  EXPECT_EQ(count_if(b, [](const EpubImage& i) { return i.uses > 0 && !i.alt.empty(); }), 9);
}

TEST(Epub, Utf16PackageDocument) {
  STRATA_REQUIRE_SHARED();
  const EpubBook b = shared_epub("danigm__epub-rs/tests/docs/book2.epub");
  EXPECT_EQ(b.images.size(), 2u);
  EXPECT_FALSE(b.title.empty());
}

TEST(Epub, SvgImageCover) {
  STRATA_REQUIRE_SHARED();
  const EpubBook b = shared_epub("kovidgoyal__calibre/resources/quick_start/eng.epub");
  ASSERT_EQ(b.images.size(), 1u);
  EXPECT_EQ(b.images[0].uses, 1);  // an SVG <image xlink:href>
}

TEST(Epub, ExtractWritesEveryImageAndItsText) {
  STRATA_REQUIRE_SHARED();
  ExtractOptions o;
  o.out = testing::scratch_dir();
  ProblemLog problems;
  const ItemResult r = extract_item(
      testing::shared_data("books/IDPF__epub3-samples/30/cole-voyage-of-life.epub"), o, problems);
  EXPECT_EQ(problems.total(), 0u);
  EXPECT_EQ(r.counters.get("epub_images"), 9);
  std::ifstream in(o.out / "cole-voyage-of-life" / "images.jsonl");
  int rows = 0;
  for (std::string line; std::getline(in, line); ++rows) {
    const Json row = Json::parse(line);
    EXPECT_TRUE(
        std::filesystem::exists(o.out / "cole-voyage-of-life" / row["file"].get<std::string>()));
    EXPECT_FALSE(row["alt"].get<std::string>().empty());
  }
  EXPECT_EQ(rows, 9);
}

TEST(Epub, NotAnEpub) {
  STRATA_REQUIRE_SHARED();
  EXPECT_THROW(read_epub(testing::shared_data(
                   "books/futurepress__epub.js/test/fixtures/alice.epub.missing")),
               EpubError);
  EXPECT_THROW(
      read_epub(testing::shared_data("books/Mewel__abbyy-to-alto/src/test/resources/abbyy.xml")),
      EpubError);
}

// EPUB URLs (books/epub_warc.hpp): one host per book, stable under SURT canonicalisation, and
// the URL an <img src> resolves to from its chapter is the image's own capture URL.
TEST(EpubWarc, BookUrlsAreStableAndMeetTheWebExtractorsResolution) {
  EXPECT_EQ(epub_base_url("urn:uuid:A649F639-6C1F-1014-8CC3-F813564D7508"),
            "https://urn-uuid-a649f639-6c1f-1014-8cc3-f813564d7508.epub.invalid/");
  EXPECT_EQ(epub_base_url(""), "https://book.epub.invalid/");
  EXPECT_EQ(epub_base_url("  ::  "), "https://book.epub.invalid/");
  const std::string long_id(100, 'x');
  const std::string host = url::host(epub_base_url(long_id));
  EXPECT_EQ(host.size(), 63u + std::string(".epub.invalid").size());
  EXPECT_NE(epub_base_url(long_id), epub_base_url(long_id + "y"));  // the hash keeps them apart
  const std::string base = epub_base_url("isbn 978-0");
  EXPECT_EQ(epub_member_url(base, "OPS/images/a b+é.png"),
            "https://isbn-978-0.epub.invalid/OPS/images/a%20b%2B%C3%A9.png");
  const std::string chapter = epub_member_url(base, "OPS/text/ch 1.xhtml");
  for (const char* src :
       {"../images/a%20b%2B%C3%A9.png", "../images/a b+é.png", "../images/a%20b+%c3%a9.png"}) {
    const auto resolved = url::resolve(chapter, src);
    ASSERT_TRUE(resolved) << src;
    EXPECT_EQ(url::join_surt(*resolved),
              url::join_surt(epub_member_url(base, "OPS/images/a b+é.png")))
        << src;
  }
  EXPECT_EQ(url::join_surt(base + "OPS/x.xhtml"), "(invalid,epub,isbn-978-0,)/ops/x.xhtml");
}

TEST(EpubWarc, NotAnEpubIsReportedAndWritesNothing) {
  const auto dir = testing::scratch_dir();
  { std::ofstream(dir / "bad.epub") << "not a zip"; }
  ProblemLog problems;
  const EpubWarcResult r = write_epub_warc(dir / "bad.epub", dir / "bad.warc.gz", problems);
  EXPECT_FALSE(r.written);
  EXPECT_EQ(problems.total(), 1u);
  EXPECT_FALSE(std::filesystem::exists(dir / "bad.warc.gz"));
}

}  // namespace
}  // namespace strata::books
