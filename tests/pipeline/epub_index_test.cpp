// EPUB images in the index (docs/books.md "EPUBs in the index"): every EPUB of
// ../shared/data/books written by `strata books warc` (books/epub_warc.hpp) and indexed as one
// collection. Every image the EPUB holds (that the size gates keep, as for web images) is a
// book image; each is found by a word of its own text (alt, caption, else the book's title);
// its fields are the OPF's; its page is the archived chapter that shows it; and the language
// and publication-year filters keep exactly the books they name.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

#include "archive/reader.hpp"
#include "books/epub.hpp"
#include "books/epub_warc.hpp"
#include "books/item.hpp"
#include "books/meta.hpp"
#include "core/digest.hpp"
#include "extract/image_info.hpp"
#include "index/analysis.hpp"
#include "index/book_facts.hpp"
#include "server/api.hpp"
#include "testing/incremental.hpp"
#include "testing/shared_data.hpp"

namespace strata {
namespace {

namespace fs = std::filesystem;

struct ExpectedImage {
  std::string path, url, digest;
  std::string text;  // its own words: the alt text, else the caption; "" when it has none
  bool shown = false;
};

struct ExpectedBook {
  fs::path epub;
  books::EpubBook book;
  std::string identifier, base;
  std::vector<ExpectedImage> images;
};

class EpubsInIndex : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    if (!testing::shared_dir()) return;
    root_ = new fs::path(testing::scratch_dir());
    books_ = new std::vector<ExpectedBook>;
    std::vector<fs::path> epubs;
    for (const auto& e : fs::recursive_directory_iterator(testing::shared_data("books")))
      if (e.path().extension() == ".epub") epubs.push_back(e.path());
    std::sort(epubs.begin(), epubs.end());
    const fs::path warcs = *root_ / "epubs";
    fs::create_directories(warcs);
    std::vector<fs::path> written;
    ProblemLog problems;
    for (size_t i = 0; i < epubs.size(); ++i) {
      const fs::path warc =
          warcs / (std::to_string(i) + "-" + epubs[i].stem().string() + ".warc.gz");
      const books::EpubWarcResult result = books::write_epub_warc(epubs[i], warc, problems);
      if (!result.written) continue;
      written.push_back(warc);
      ExpectedBook b{epubs[i], books::read_epub(epubs[i]), {}, {}, {}};
      b.identifier = b.book.identifier.empty()
                         ? "sha256-" + sha256_hex(books::read_whole(epubs[i])).substr(0, 32)
                         : b.book.identifier;
      b.base = books::epub_base_url(b.identifier);
      for (const books::EpubImage& image : b.book.images) {
        const std::string bytes = books::read_epub_member(epubs[i], image.path);
        const auto info = extract::read_image_info(bytes);
        // Indexed like a web image: the size gates leave tiny or undecodable ones out.
        if (!info || !extract::passes_size_gates(*info)) continue;
        ExpectedImage e{image.path, books::epub_member_url(b.base, image.path), sha256_hex(bytes),
                        image.img_uses > 0 && !image.alt.empty() ? image.alt : image.caption,
                        image.uses > 0};
        b.images.push_back(std::move(e));
      }
      books_->push_back(std::move(b));
    }
    epub_count_ = epubs.size();
    problems_ = problems.total();
    testing::add_archives(index(), written, *root_ / "work");
  }
  static void TearDownTestSuite() {
    delete books_;
    delete root_;
  }

  static fs::path index() { return *root_ / "index"; }

  // The API's answer (no analysis ran: safe search off; every image, none collapsed).
  static Json search(const server::Params& extra, int status = 200) {
    Xapian::Database db(index().string());
    server::Params params{{"safeSearch", "off"}, {"maxItems", "200"},     {"decorative", "show"},
                          {"collapse", "off"},   {"collection", "epubs"}, {"fields", kFields}};
    for (const auto& [k, v] : extra) {
      params.erase(k);
      params.emplace(k, v);
    }
    const server::Reply reply =
        server::image_search(db, params, {"http://strata.test", "/imagesearch"}, {});
    EXPECT_EQ(reply.status, status) << reply.body;
    return Json::parse(reply.body);
  }

  // Every result of a query, by digest (paged).
  static std::map<std::string, Json> all_results(server::Params extra) {
    std::map<std::string, Json> out;
    for (int offset = 0;; offset += 200) {
      extra.erase("offset");
      extra.emplace("offset", std::to_string(offset));
      const Json page = search(extra);
      for (const Json& item : page["responseItems"]) out[item["imgDigest"]] = item;
      if (page["responseItems"].size() < 200) break;
    }
    return out;
  }

  static std::set<std::string> digests(const Json& answer) {
    std::set<std::string> out;
    for (const Json& item : answer["responseItems"]) out.insert(item["imgDigest"]);
    return out;
  }

  // The longest word of `text` as the analyser splits it (any script).
  static std::string longest_word(const std::string& text) {
    std::string best;
    for (const std::string& w : index::split_words(text))
      if (w.size() > best.size()) best = w;
    return best;
  }

  static constexpr const char* kFields =
      "imgDigest,imgSrc,imgAlt,imgCaption,pageURL,pageTitle,pageLinkToArchive,kind,bookTitle,"
      "author,pubYear,subject,language,bookId,bookFormat,bookChapter,bookPageIndex";
  static inline fs::path* root_ = nullptr;
  static inline std::vector<ExpectedBook>* books_ = nullptr;
  static inline size_t epub_count_ = 0;
  static inline uint64_t problems_ = 0;
};

TEST_F(EpubsInIndex, EveryEpubIsWrittenWithItsChaptersAndImages) {
  STRATA_REQUIRE_SHARED();
  EXPECT_EQ(epub_count_, 15u);  // shared/data/INVENTORY.md, table B1
  EXPECT_EQ(books_->size(), epub_count_);
  // test.epub's manifest names two items its ZIP lacks ("a % encoded item.xml", "a normal
  // item.xml"): reported, left out.
  EXPECT_EQ(problems_, 2u);
  // alice.epub's WARC: its chapters are resources (what replay serves) under the book's host.
  const ExpectedBook& alice = *std::find_if(books_->begin(), books_->end(), [](const auto& b) {
    return b.epub.filename() == "alice.epub";
  });
  EXPECT_EQ(alice.base,
            "https://edu-nyu-itp-future-of-publishing-alice-in-wonderland.epub.invalid/");
  size_t chapters = 0, images = 0, chapter_facts = 0;
  const fs::path warc = *root_ / "epubs";
  for (const auto& e : fs::directory_iterator(warc)) {
    if (e.path().filename().string().find("-alice.warc.gz") == std::string::npos) continue;
    auto reader = archive::ArchiveReader::open(e.path(), {}, {});
    while (reader->next()) {
      const archive::Record& r = reader->record();
      if (r.type == archive::RecordType::resource && r.content_type == "application/xhtml+xml")
        ++chapters;
      if (r.type == archive::RecordType::resource && r.content_type == "image/jpeg") ++images;
      if (r.type == archive::RecordType::metadata) ++chapter_facts;
      // Dated by dcterms:modified.
      if (r.type != archive::RecordType::warcinfo) {
        EXPECT_EQ(r.date, "20120118124700");
      }
    }
  }
  EXPECT_EQ(images, 28u);
  EXPECT_GE(chapters, 12u);
  EXPECT_GE(chapter_facts, chapters);  // one chapter record each, one page record for i016
}

TEST_F(EpubsInIndex, EveryImageIsABookImageWithTheFactsOfItsOpf) {
  STRATA_REQUIRE_SHARED();
  std::map<std::string, std::vector<std::pair<const ExpectedBook*, const ExpectedImage*>>> expected;
  for (const ExpectedBook& b : *books_)
    for (const ExpectedImage& i : b.images) expected[i.digest].push_back({&b, &i});
  ASSERT_GT(expected.size(), 100u);
  const auto found = all_results({{"kind", "book"}});
  std::set<std::string> want, got;
  for (const auto& [digest, uses] : expected) want.insert(digest);
  for (const auto& [digest, item] : found) got.insert(digest);
  EXPECT_EQ(got, want);  // every image, and nothing else
  for (const auto& [digest, uses] : expected) {
    if (!found.count(digest)) continue;
    const Json& item = found.at(digest);
    // The image may be in two books (the same bytes): the document is one of them.
    const auto match = std::find_if(uses.begin(), uses.end(), [&](const auto& use) {
      return item["imgSrc"] == use.second->url;
    });
    ASSERT_NE(match, uses.end()) << item.dump();
    const ExpectedBook& b = *match->first;
    const ExpectedImage& image = *match->second;
    SCOPED_TRACE(b.epub.filename().string() + " " + image.path);
    EXPECT_EQ(item["kind"], "book");
    EXPECT_EQ(item["bookFormat"], "epub");
    EXPECT_EQ(item["bookId"], b.identifier);
    EXPECT_EQ(item.value("bookTitle", ""), b.book.title);
    EXPECT_EQ(item.value("pageTitle", ""), b.book.title);
    EXPECT_EQ(item.value("language", ""), books::iso_language(b.book.language));
    EXPECT_EQ(item.value("author", Json::array()), Json(b.book.creators));
    EXPECT_EQ(item.value("subject", Json::array()), Json(b.book.subjects));
    if (auto year = books::first_year(b.book.date)) {
      EXPECT_EQ(item["pubYear"], *year);
    } else {
      EXPECT_FALSE(item.contains("pubYear"));
    }
    // Its page is a chapter of the book, archived: replay opens it.
    const std::string page = item["pageURL"];
    EXPECT_EQ(page.rfind(b.base, 0), 0u) << page;
    EXPECT_NE(item.value("pageLinkToArchive", "").find(page), std::string::npos);
    // Its place in the spine, when the chapter is in the spine (test.epub shows cc.png on
    // an XHTML item outside it too, and that reference can be the document's page).
    if (item.contains("bookPageIndex")) {
      EXPECT_GE(item["bookPageIndex"].get<int>(), 1);
    }
    if (!image.text.empty()) {
      const Json texts = item.value("imgAlt", Json::array()).is_array()
                             ? item.value("imgAlt", Json::array())
                             : Json::array();
      const Json captions = item.value("imgCaption", Json::array());
      const bool in_alt = std::find(texts.begin(), texts.end(), image.text) != texts.end();
      const bool in_caption =
          std::find(captions.begin(), captions.end(), image.text) != captions.end();
      EXPECT_TRUE(in_alt || in_caption) << image.text << " in " << item.dump();
    }
  }
}

TEST_F(EpubsInIndex, EachImageIsFoundByAWordOfItsOwnText) {
  STRATA_REQUIRE_SHARED();
  size_t by_own_text = 0, by_title = 0;
  for (const ExpectedBook& b : *books_) {
    for (const ExpectedImage& image : b.images) {
      SCOPED_TRACE(b.epub.filename().string() + " " + image.path + " [" + image.text + "]");
      const std::string own = longest_word(image.text);
      const std::string word = own.empty() ? longest_word(b.book.title) : own;
      ASSERT_FALSE(word.empty());
      (own.empty() ? by_title : by_own_text) += 1;
      const auto found = all_results({{"q", word}, {"kind", "book"}});
      EXPECT_TRUE(found.count(image.digest)) << "q=" << word;
    }
  }
  EXPECT_GT(by_own_text, 80u);
  EXPECT_GT(by_title, 0u);
}

TEST_F(EpubsInIndex, LanguageAndPublicationYearFiltersKeepTheBooksTheyName) {
  STRATA_REQUIRE_SHARED();
  // The truth: digests by language code and by year, from the OPFs.
  std::map<std::string, std::set<std::string>> by_language;
  std::map<int, std::set<std::string>> by_year;
  for (const ExpectedBook& b : *books_) {
    const std::string code = index::book_language_code(books::iso_language(b.book.language));
    const auto year = books::first_year(b.book.date);
    for (const ExpectedImage& i : b.images) {
      by_language[code].insert(i.digest);
      if (year) by_year[*year].insert(i.digest);
    }
  }
  ASSERT_TRUE(by_language.count("fr") && by_language.count("ja") && by_language.count("en"));
  const auto keys = [](const std::map<std::string, Json>& m) {
    std::set<std::string> out;
    for (const auto& [k, v] : m) out.insert(k);
    return out;
  };
  EXPECT_EQ(keys(all_results({{"language", "fr"}})), by_language["fr"]);
  EXPECT_EQ(keys(all_results({{"language", "JA-jp"}})), by_language["ja"]);
  std::set<std::string> fr_es = by_language["fr"];
  fr_es.insert(by_language["es"].begin(), by_language["es"].end());
  EXPECT_EQ(keys(all_results({{"language", "fr,es"}})), fr_es);
  EXPECT_EQ(keys(all_results({{"q", "language:fr"}})), by_language["fr"]);
  // Years: one, a range, open ends; the capture dates (from/to) are another thing.
  ASSERT_TRUE(by_year.count(2010));
  EXPECT_EQ(keys(all_results({{"pubYearFrom", "2010"}, {"pubYearTo", "2010"}})), by_year[2010]);
  std::set<std::string> since_2011, until_2010;
  for (const auto& [year, ds] : by_year)
    (year >= 2011 ? since_2011 : until_2010).insert(ds.begin(), ds.end());
  EXPECT_EQ(keys(all_results({{"pubYearFrom", "2011"}})), since_2011);
  EXPECT_EQ(keys(all_results({{"pubYearTo", "2010"}})), until_2010);
  EXPECT_EQ(keys(all_results({{"q", "pubyear:-2010"}})), until_2010);
  EXPECT_TRUE(all_results({{"pubYearFrom", "1500"}, {"pubYearTo", "1600"}}).empty());
  // Both filters: French books of 2010 only.
  std::set<std::string> fr_2010;
  std::set_intersection(by_language["fr"].begin(), by_language["fr"].end(), by_year[2010].begin(),
                        by_year[2010].end(), std::inserter(fr_2010, fr_2010.end()));
  EXPECT_FALSE(fr_2010.empty());
  EXPECT_EQ(keys(all_results({{"language", "fr"}, {"pubYearFrom", "2010"}, {"pubYearTo", "2010"}})),
            fr_2010);
  // Bad values are 400s naming the parameter.
  EXPECT_EQ(search({{"language", "f"}}, 400)["error"]["parameter"], "language");
  EXPECT_EQ(search({{"pubYearFrom", "2012"}, {"pubYearTo", "2011"}}, 400)["error"]["parameter"],
            "pubYearTo");
}

// A chapter's heading names its pictures as a web page's title names its own: alice.epub's
// chapter II, "The Pool Of Tears", shows Alice swimming (i006), whose own words ("her foot
// slipped … salt-water") never say "pool"; every chapter's book page title is the book's.
TEST_F(EpubsInIndex, AChaptersHeadingFindsItsPictures) {
  STRATA_REQUIRE_SHARED();
  const std::map<std::string, Json> found = all_results({{"q", "pool tears"}});
  bool swimming = false;
  for (const auto& [digest, item] : found) {
    const std::string src = item["imgSrc"];
    if (src.find("alice-in-wonderland") == std::string::npos) continue;
    swimming |= src.ends_with("/OPS/images/i006_th.jpg");
    EXPECT_EQ(item["pageTitle"], "Alice's Adventures in Wonderland") << src;
  }
  EXPECT_TRUE(swimming);
  for (const auto& [digest, item] : all_results({{"q", "slipped"}})) {
    if (std::string(item["imgSrc"]).ends_with("/OPS/images/i006_th.jpg")) {
      EXPECT_EQ(item["bookChapter"], "The Pool Of Tears");
    }
  }
}

}  // namespace
}  // namespace strata
