// Book images in the index beside web images (docs/books.md "Indexing"): a generated Internet
// Archive item, written as a WARC by `strata books warc`, and a real web archive (archive.org's
// own 2008 crawl) indexed into one index: one query answers with both kinds, the kind filter
// splits them, the book's fields come back through the API, and adding the book after the web
// archive, or removing it again, gives the documents of one run.
#include <gtest/gtest.h>

#include <set>

#include "books/book_warc.hpp"
#include "books/synthetic.hpp"
#include "index/book_facts.hpp"
#include "server/api.hpp"
#include "testing/incremental.hpp"
#include "testing/shared_data.hpp"

namespace strata {
namespace {

namespace fs = std::filesystem;
using testing::add_archives;
using testing::indexed_documents;

constexpr int kBookCrops = 6;  // the generated item's pictures that pass the default filters
const char* const kWebArchive =
    "archives/archivesunleashed__aut/src/test/resources/warc/example.warc.gz";

class BooksInIndex : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    root_ = new fs::path(testing::scratch_dir());
    const books::SyntheticItem item = books::write_synthetic_item(*root_ / "items", {});
    fs::create_directories(*root_ / "books-ia");
    ProblemLog problems;
    const books::ItemResult result =
        books::item_to_warc(item.folder, books::ExtractOptions{}, *root_ / "books-ia", problems);
    warc_crops_ = result.counters.get("warc_crops");
    problems_ = problems.total();
  }
  static void TearDownTestSuite() { delete root_; }

  static fs::path book_warc() { return *root_ / "books-ia" / "strataTestBook.warc.gz"; }

  // The API's answer over `index` (safe search off: no analysis ran).
  static Json search(const fs::path& index, const std::string& query, const std::string& more,
                     const std::string& kind = "") {
    Xapian::Database db(index.string());
    server::Params params{{"safeSearch", "off"}, {"maxItems", "200"}, {"more", more}};
    if (!query.empty()) params.emplace("q", query);
    if (!kind.empty()) params.emplace("kind", kind);
    const server::Reply reply =
        server::image_search(db, params, {"http://strata.test", "/imagesearch"}, {});
    EXPECT_EQ(reply.status, 200) << reply.body;
    return Json::parse(reply.body);
  }

  static std::multiset<std::string> kinds(const Json& answer) {
    std::multiset<std::string> out;
    for (const Json& item : answer["responseItems"]) out.insert(item["kind"].get<std::string>());
    return out;
  }

  static inline fs::path* root_ = nullptr;
  static inline int64_t warc_crops_ = 0;
  static inline uint64_t problems_ = 0;
};

TEST_F(BooksInIndex, TheBookWarcHoldsEveryCropWithItsPage) {
  EXPECT_EQ(problems_, 0u);
  EXPECT_EQ(warc_crops_, kBookCrops);
  const fs::path out = *root_ / "extract-book";
  fs::create_directories(out);
  extract::ExtractOptions options;
  options.collection = "books-ia";
  const auto result = extract::run_extraction({book_warc()}, options, out, 1, {}, nullptr);
  EXPECT_EQ(result.counters.get("book_pages"), kBookCrops);
  EXPECT_EQ(result.counters.get("book_pages_malformed"), 0);
  std::ifstream in(out / "part-00000.jsonl");
  int images = 0, refs = 0;
  for (std::string line; std::getline(in, line);) {
    const Json j = Json::parse(line);
    if (j["type"] == "image") {
      ++images;
      EXPECT_EQ(j["timestamp"], "20110324120000");  // the scan date
      EXPECT_EQ(j["mimeDetected"], "image/jpeg");
      EXPECT_NE(j["imgUrl"].get<std::string>().find("_jp2.zip/strataTestBook_"), std::string::npos);
      EXPECT_NE(j["imgUrl"].get<std::string>().find("?xywh="), std::string::npos);
    } else if (j["type"] == "ref") {
      ++refs;
      EXPECT_EQ(j["tag"], "book");
      EXPECT_EQ(j["pageTitle"], "A Synthetic Book of Plates");
      EXPECT_EQ(j["pageUrl"].get<std::string>().rfind(
                    "https://archive.org/details/strataTestBook/page/n", 0),
                0u);
      const auto facts = index::parse_book_facts(j["book"].get<std::string>());
      ASSERT_TRUE(facts);
      EXPECT_EQ(facts->author, std::vector<std::string>{"Ada Strata"});
      EXPECT_EQ(facts->year, 1884);
    }
  }
  EXPECT_EQ(images, kBookCrops);
  EXPECT_EQ(refs, kBookCrops);
}

TEST_F(BooksInIndex, OneQueryFindsBothKindsAndTheFilterSplitsThem) {
  STRATA_REQUIRE_SHARED();
  const fs::path web = testing::shared_data(kWebArchive), index = *root_ / "index-both";
  add_archives(index, {web, book_warc()}, *root_ / "work");
  const std::string more = "kind,author,pubYear,subject,language,bookPage,bookTitle,bookId";
  // archive.org's pages and the book's page-image URLs share the word.
  const Json both = search(index, "archive", more);
  const auto all = kinds(both);
  EXPECT_EQ(all.count("book"), static_cast<size_t>(kBookCrops));
  EXPECT_GT(all.count("web"), 10u);
  const Json books = search(index, "archive kind:book", more);
  EXPECT_EQ(kinds(books),
            std::multiset<std::string>({"book", "book", "book", "book", "book", "book"}));
  EXPECT_EQ(kinds(search(index, "archive", more, "book")), kinds(books));
  const auto web_kinds = kinds(search(index, "archive", "kind", "web"));
  EXPECT_EQ(web_kinds.count("book"), 0u);
  EXPECT_EQ(web_kinds.size(), all.count("web"));
  const Json& page = books["responseItems"][0];
  EXPECT_EQ(page["pageTitle"], "A Synthetic Book of Plates");
  EXPECT_EQ(page["bookTitle"], "A Synthetic Book of Plates");
  EXPECT_EQ(page["author"], Json::array({"Ada Strata"}));
  EXPECT_EQ(page["pubYear"], 1884);
  EXPECT_EQ(page["language"], "en");
  EXPECT_EQ(page["subject"], Json::array({"Harbours", "Mills"}));
  EXPECT_EQ(page["bookId"], "strataTestBook");
  EXPECT_EQ(page["imgTstamp"], "20110324120000");
  EXPECT_TRUE(page.contains("bookPage"));
  EXPECT_FALSE(page.contains("pageLinkToArchive"));  // the page is the book viewer's, live
  EXPECT_EQ(page["collection"], Json::array({"books-ia"}));
  // The author and the subjects are searchable.
  EXPECT_EQ(kinds(search(index, "ada strata", "kind")).count("book"),
            static_cast<size_t>(kBookCrops));
}

TEST_F(BooksInIndex, AddingTheBookLaterOrRemovingItGivesTheDocumentsOfOneRun) {
  STRATA_REQUIRE_SHARED();
  const fs::path web = testing::shared_data(kWebArchive);
  const fs::path one_run = *root_ / "index-one", web_only = *root_ / "index-web",
                 later = *root_ / "index-later";
  add_archives(one_run, {web, book_warc()}, *root_ / "work");
  add_archives(web_only, {web}, *root_ / "work");
  add_archives(later, {web}, *root_ / "work");
  add_archives(later, {book_warc()}, *root_ / "work");
  const auto expected = indexed_documents(one_run);
  EXPECT_EQ(indexed_documents(later), expected);
  size_t book_documents = 0;
  for (const auto& [id, doc] : expected) book_documents += doc.contains("book");
  EXPECT_EQ(book_documents, static_cast<size_t>(kBookCrops));

  store::IncrementalOptions options;
  options.index_dir = later;
  options.work_dir = *root_ / "work" / "remove";
  bool found = false;
  store::remove_collection(options, "books-ia", found);
  EXPECT_TRUE(found);
  EXPECT_EQ(indexed_documents(later), indexed_documents(web_only));
}

}  // namespace
}  // namespace strata
