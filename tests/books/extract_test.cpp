// Whole items: a generated IA-style book (known truth) through both modes, and damaged
// items reported without stopping.
#include <gtest/gtest.h>
#include <zip.h>

#include <fstream>

#include "books/extract.hpp"
#include "books/item.hpp"
#include "books/jp2.hpp"
#include "books/jpeg.hpp"
#include "books/synthetic.hpp"
#include "core/json.hpp"
#include "testing/containers.hpp"
#include "testing/shared_data.hpp"

namespace strata::books {
namespace {
namespace fs = std::filesystem;

std::vector<Json> read_jsonl(const fs::path& path) {
  std::vector<Json> out;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) out.push_back(Json::parse(line));
  return out;
}

struct Book : ::testing::Test {
  static void SetUpTestSuite() {
    root = new fs::path(testing::scratch_dir());
    item = new SyntheticItem(write_synthetic_item(*root / "items", options));
  }
  static inline fs::path* root = nullptr;
  static inline SyntheticItem* item = nullptr;
  static inline SyntheticOptions options;
};

TEST_F(Book, DefaultModeFindsEveryPictureAndCropsIt) {
  ProblemLog problems;
  ExtractOptions o;
  o.out = *root / "default";
  o.quality = 100;
  const ItemResult r = extract_item(item->folder, o, problems);
  EXPECT_EQ(problems.total(), 0u) << problem_report(problems);
  EXPECT_EQ(r.counters.get("pages"), options.leaves);
  // 10 drawn pictures, one written as two blocks and joined: 10 found.
  EXPECT_EQ(r.counters.get("pictures"), 10);
  EXPECT_EQ(r.counters.get("dropped_page_type"), 2);  // the rescan and the back cover
  EXPECT_EQ(r.counters.get("dropped_size"), 2);       // the 250 px picture and the thin rule
  EXPECT_EQ(r.counters.get("crops"), 6);
  const auto rows = read_jsonl(o.out / options.identifier / "images.jsonl");
  ASSERT_EQ(rows.size(), 6u);
  const std::vector<int> leaves{5, 6, 7, 8, 10, 12}, viewer{4, 5, 6, 7, 8, 10};
  for (size_t i = 0; i < rows.size(); ++i) {
    const Json& row = rows[i];
    const int leaf = row["leaf"];
    EXPECT_EQ(leaf, leaves[i]);
    EXPECT_EQ(row["page_index"], viewer[i]);
    EXPECT_EQ(row["page_url"],
              "https://archive.org/details/strataTestBook/page/n" + std::to_string(viewer[i]));
    const Box box{row["box"][0], row["box"][1], row["box"][2], row["box"][3]};
    const Raster page = render_page(*item, options, leaf);
    // The crop's pixels equal the page's, so the JPEG is the one these pixels give.
    EXPECT_EQ(testing::read_file(o.out / options.identifier / row["file"].get<std::string>()),
              jpeg_encode(crop(page, box), o.quality))
        << row.dump();
  }
  EXPECT_EQ(rows[0]["caption"], "Fig. 1. The old harbour at dawn");
  const Json book = Json::parse(testing::read_file(o.out / options.identifier / "book.json"));
  EXPECT_EQ(book["title"], "A Synthetic Book of Plates");
  EXPECT_EQ(book["year"], 1884);
  EXPECT_EQ(book["language"], "en");
  EXPECT_EQ(rows[1]["blocks"], 2);  // the split picture, joined
  EXPECT_EQ(rows[1]["box"], Json::array({100, 60, 500, 380}));
  EXPECT_EQ(rows[4]["caption"], "Plate II. A mill in the valley");
  EXPECT_EQ(rows[0]["printed_page"], "4");  // leaves 2, 3, 4 are pages 1 to 3
  // Text around a picture stays on its page or the next one.
  const std::string first_text_of_leaf5 = item->page_text[5].front();
  EXPECT_NE(rows[0]["pre_text"].get<std::string>().find(first_text_of_leaf5), std::string::npos);
  EXPECT_NE(rows[0]["post_text"].get<std::string>().find("Fig. 1."), std::string::npos);
  EXPECT_LE(rows[0]["pre_text"].get<std::string>().size(), 1000u);
}

TEST_F(Book, RegionsReadInPlaceArePixelIdenticalToThePages) {
  // The crop path before JPEG: each picture's region, decoded from its member of the ZIP,
  // equals the page as rendered (lossless JP2), and only the members used are read.
  PageImages images(item->folder / "strataTestBook_jp2.zip");
  EXPECT_EQ(images.members(), static_cast<uint64_t>(options.leaves));
  for (const SyntheticBlock& p : item->pictures) {
    const Raster expected = crop(render_page(*item, options, p.leaf), p.box);
    EXPECT_TRUE(jp2_decode_region(images.read(p.leaf), p.box, 64) == expected) << "leaf " << p.leaf;
  }
  EXPECT_LE(images.bytes_read(), fs::file_size(item->folder / "strataTestBook_jp2.zip"));
}

TEST_F(Book, FiltersAreSwitchable) {
  ProblemLog problems;
  ExtractOptions o;
  o.out = *root / "filters";
  o.filters.size = false;
  const ItemResult r = extract_item(item->folder, o, problems);
  EXPECT_EQ(r.counters.get("dropped_aspect"), 1);  // the 560 x 40 rule
  EXPECT_EQ(r.counters.get("crops"), 7);
  o.filters.page_type = false;
  o.out = *root / "filters2";
  EXPECT_EQ(extract_item(item->folder, o, problems).counters.get("crops"), 9);
}

std::map<std::string, std::string> read_zip(const fs::path& path) {
  std::map<std::string, std::string> out;
  int code = 0;
  zip_t* z = zip_open(path.c_str(), ZIP_RDONLY, &code);
  if (!z) return out;
  for (zip_int64_t i = 0; i < zip_get_num_entries(z, 0); ++i) {
    zip_stat_t st;
    zip_stat_index(z, static_cast<zip_uint64_t>(i), 0, &st);
    EXPECT_EQ(st.comp_method, ZIP_CM_STORE) << st.name;
    std::string data(st.size, '\0');
    zip_file_t* f = zip_fopen_index(z, static_cast<zip_uint64_t>(i), 0);
    zip_fread(f, data.data(), data.size());
    zip_fclose(f);
    out[st.name] = data;
  }
  zip_discard(z);
  return out;
}

std::vector<std::vector<std::string>> tsv_rows(const std::string& tsv) {
  std::vector<std::vector<std::string>> rows;
  size_t at = 0;
  for (size_t nl; (nl = tsv.find('\n', at)) != std::string::npos; at = nl + 1) {
    std::vector<std::string> cells;
    const std::string line = tsv.substr(at, nl - at);
    size_t from = 0;
    for (size_t tab; (tab = line.find('\t', from)) != std::string::npos; from = tab + 1)
      cells.push_back(line.substr(from, tab - from));
    cells.push_back(line.substr(from));
    rows.push_back(cells);
  }
  return rows;
}

TEST_F(Book, CompatModeWritesTheSeedsZipAndTsv) {
  ProblemLog problems;
  ExtractOptions o;
  o.out = *root / "compat";
  o.compat = true;
  o.quality = 75;
  const ItemResult r = extract_item(item->folder, o, problems);
  EXPECT_EQ(problems.total(), 0u) << problem_report(problems);
  const auto zip = read_zip(o.out / "strataTestBook_imgs.zip");
  ASSERT_TRUE(zip.count("strataTestBook_imgs/strataTestBook.imageslist.txt"));
  const auto rows = tsv_rows(zip.at("strataTestBook_imgs/strataTestBook.imageslist.txt"));
  ASSERT_EQ(rows.size(), 6u);
  EXPECT_EQ(rows[0],
            (std::vector<std::string>{"Identifier", "PageNumber", "ImageID", "Width", "Height",
                                      "ImageFileName", "AccessURL", "PreText", "PostText"}));
  // Leaves 5..10 only (leaf > 4, leaf < last leaf - 4), over 200 px, the rescan dropped, the
  // split picture lost (two halves of 160 px): 5 rows, numbered by viewer page.
  const std::vector<std::vector<std::string>> expected{{"4", "0", "360", "320"},
                                                       {"5", "1", "250", "250"},
                                                       {"6", "2", "500", "420"},
                                                       {"7", "3", "600", "820"},
                                                       {"8", "4", "320", "360"}};
  for (size_t i = 0; i < expected.size(); ++i) {
    const auto& row = rows[i + 1];
    ASSERT_EQ(row.size(), 9u);
    EXPECT_EQ(row[0], "strataTestBook");
    EXPECT_EQ((std::vector<std::string>{row[1], row[2], row[3], row[4]}), expected[i]);
    const std::string file = "strataTestBook.img." + row[2] + ".000" + row[1] + ".jpg";
    EXPECT_EQ(row[5], file);
    EXPECT_EQ(row[6], "https://archive.org/stream/strataTestBook/strataTestBook#page/n" + row[1] +
                          "/mode/1up");
    EXPECT_TRUE(zip.count("strataTestBook_imgs/" + file)) << file;
    EXPECT_LE(row[7].size(), 1000u);
    EXPECT_LE(row[8].size(), 1000u);
  }
  EXPECT_EQ(r.counters.get("crops"), 5);
  // PreText runs back across pages (here into leaf 4), PostText stops at the next image.
  EXPECT_NE(rows[1][7].find(item->page_text[4].back()), std::string::npos);
  EXPECT_NE(rows[1][8].find("Fig. 1. The old harbour at dawn"), std::string::npos);
  EXPECT_EQ(rows[1][8].find("KALEVIMAGE"), std::string::npos);
}

TEST(BookItems, JpegPageScans) {
  SyntheticOptions o;
  o.identifier = "jpegPages";
  o.jpeg_pages = true;
  const SyntheticItem item = write_synthetic_item(testing::scratch_dir(), o);
  ExtractOptions eo;
  eo.out = item.folder.parent_path() / "out";
  ProblemLog problems;
  const ItemResult r = extract_item(item.folder, eo, problems);
  EXPECT_EQ(problems.total(), 0u) << problem_report(problems);
  EXPECT_EQ(r.counters.get("crops"), 6);
  // The crop is the page's own pixels: the same region of a full decode of the member.
  PageImages images(item.folder / "jpegPages_jpg.zip");
  const Box box{140, 120, 500, 440};
  EXPECT_TRUE(jpeg_decode_region(images.read(5), box) ==
              crop(jpeg_decode_full(images.read(5)), box));
  EXPECT_EQ(testing::read_file(eo.out / "jpegPages" / "jpegPages.img.0.0004.jpg"),
            jpeg_encode(crop(jpeg_decode_full(images.read(5)), box), eo.quality));
}

TEST(BookItems, DamagedItemsAreReportedAndTheBatchGoesOn) {
  const fs::path root = testing::scratch_dir();
  SyntheticOptions o;
  o.identifier = "damaged";
  const SyntheticItem item = write_synthetic_item(root, o);
  ExtractOptions eo;
  eo.out = root / "out";
  // Truncated page ZIP: libzip cannot open it.
  const fs::path zip = item.folder / "damaged_jp2.zip";
  const std::string bytes = testing::read_file(zip);
  testing::write_file(zip, bytes.substr(0, bytes.size() / 2));
  ProblemLog problems;
  EXPECT_TRUE(extract_item(item.folder, eo, problems).skipped);
  EXPECT_EQ(problems.by_kind().get("bad_item"), 1);
  // Abbyy truncated mid-book: the pages before are cropped, the problem has an offset.
  testing::write_file(zip, bytes);
  const fs::path abbyy = item.folder / "damaged_abbyy.gz";
  const std::string xml = testing::gunzip_all(testing::read_file(abbyy));
  testing::write_file(abbyy,
                      testing::gzip_member(xml.substr(0, xml.find("<page", xml.size() * 3 / 4))));
  ProblemLog partial;
  const ItemResult r = extract_item(item.folder, eo, partial);
  EXPECT_EQ(partial.by_kind().get("bad_abbyy"), 1);
  EXPECT_GT(partial.kept().at(0).offset, 0u);
  EXPECT_GT(r.counters.get("crops"), 0) << r.counters.to_text() << problem_report(partial);
  // Scandata with fewer leaves than Abbyy pages: no guessing.
  testing::write_file(abbyy, testing::gzip_member(xml));
  const fs::path scandata = item.folder / "damaged_scandata.xml";
  std::string leaves = testing::read_file(scandata);
  leaves.erase(leaves.rfind("<page leafNum"),
               leaves.rfind("</pageData>") - leaves.rfind("<page leafNum"));
  testing::write_file(scandata, leaves);
  ProblemLog mismatch;
  EXPECT_TRUE(extract_item(item.folder, eo, mismatch).skipped);
  EXPECT_EQ(mismatch.by_kind().get("page_count_mismatch"), 1);
  // Not an item at all.
  ProblemLog missing;
  EXPECT_TRUE(extract_item(root / "nothing-here", eo, missing).skipped);
  EXPECT_EQ(missing.by_kind().get("bad_item"), 1);
}

}  // namespace
}  // namespace strata::books
