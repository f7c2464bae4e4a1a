// Items as Internet Archive also serves them: TIFF page scans (`_tif.zip`) and a whole item
// packed as one ZIP. Both give the crops of the same item read from JP2 pages in a folder.
#include <gtest/gtest.h>
#include <zip.h>

#include <fstream>

#include "books/extract.hpp"
#include "books/jpeg.hpp"
#include "books/synthetic.hpp"
#include "books/tiff.hpp"
#include "core/json.hpp"
#include "testing/containers.hpp"
#include "testing/shared_data.hpp"

namespace strata::books {
namespace {
namespace fs = std::filesystem;

std::vector<std::string> lines_of(const fs::path& path) {
  std::vector<std::string> out;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

// The item folder's files as ID.zip, under "ID/" as archive.org's "download all" packs them.
fs::path pack_item(const fs::path& folder, const fs::path& zip_path) {
  int code = 0;
  zip_t* zip = zip_open(zip_path.c_str(), ZIP_CREATE | ZIP_TRUNCATE, &code);
  if (!zip) throw std::runtime_error("cannot create " + zip_path.string());
  const std::string id = folder.filename().string();
  for (const auto& entry : fs::directory_iterator(folder)) {
    zip_source_t* source = zip_source_file(zip, entry.path().c_str(), 0, -1);
    const std::string name = id + "/" + entry.path().filename().string();
    if (!source || zip_file_add(zip, name.c_str(), source, 0) < 0)
      throw std::runtime_error("cannot add " + name);
  }
  if (zip_close(zip) != 0) throw std::runtime_error("cannot write " + zip_path.string());
  return zip_path;
}

struct PackedItems : ::testing::Test {
  static void SetUpTestSuite() {
    root = new fs::path(testing::scratch_dir());
    jp2_item = new SyntheticItem(write_synthetic_item(*root / "jp2", {}));
    SyntheticOptions tiff;
    tiff.tiff_pages = true;
    tiff_item = new SyntheticItem(write_synthetic_item(*root / "tif", tiff));
  }
  static inline fs::path* root = nullptr;
  static inline SyntheticItem* jp2_item = nullptr;
  static inline SyntheticItem* tiff_item = nullptr;

  // extract_item's images.jsonl lines and crop files of `item` (quality 100).
  static std::pair<std::vector<std::string>, std::vector<std::string>> crops_of(
      const fs::path& item, const std::string& out) {
    ProblemLog problems;
    ExtractOptions o;
    o.out = *root / out;
    o.quality = 100;
    const ItemResult r = extract_item(item, o, problems);
    EXPECT_EQ(problems.total(), 0u) << problem_report(problems);
    EXPECT_EQ(r.counters.get("crops"), 6);
    const std::vector<std::string> rows = lines_of(o.out / "strataTestBook" / "images.jsonl");
    std::vector<std::string> jpegs;
    for (const auto& row : rows)
      jpegs.push_back(testing::read_file(o.out / "strataTestBook" /
                                         Json::parse(row)["file"].get<std::string>()));
    return {rows, jpegs};
  }
};

TEST_F(PackedItems, TiffPagesGiveTheCropsOfTheRenderedPage) {
  EXPECT_TRUE(fs::exists(tiff_item->folder / "strataTestBook_tif.zip"));
  const auto [rows, jpegs] = crops_of(tiff_item->folder, "tiff-out");
  ASSERT_EQ(rows.size(), 6u);
  SyntheticOptions options;
  for (size_t i = 0; i < rows.size(); ++i) {
    const Json row = Json::parse(rows[i]);
    const Box box{row["box"][0], row["box"][1], row["box"][2], row["box"][3]};
    const Raster page = render_page(*tiff_item, options, row["leaf"].get<int>());
    EXPECT_EQ(jpegs[i], jpeg_encode(crop(page, box), 100)) << row.dump();
    EXPECT_NE(row["image_url"].get<std::string>().find("strataTestBook_tif.zip/"),
              std::string::npos);
  }
}

TEST_F(PackedItems, TiffRegionsAreThePixelsGreyOrColour) {
  for (int channels : {1, 3}) {
    Raster page{40, 30, channels, {}};
    for (int i = 0; i < 40 * 30 * channels; ++i) page.pixels.push_back(static_cast<uint8_t>(i * 7));
    const Box box{5, 7, 33, 29};
    for (bool deflate : {false, true})
      EXPECT_EQ(tiff_decode_region(tiff_encode(page, deflate), box), crop(page, box));
    EXPECT_EQ(tiff_bounds(tiff_encode(page, true)), (Box{0, 0, 40, 30}));
  }
  Raster page{40, 30, 1, std::vector<uint8_t>(1200, 9)};
  const std::string tiff = tiff_encode(page, false);
  EXPECT_THROW(tiff_decode_region(tiff.substr(0, tiff.size() / 2), {0, 0, 40, 30}), TiffError);
  EXPECT_THROW(tiff_decode_region(tiff, {0, 0, 41, 30}), TiffError);
  EXPECT_THROW(tiff_bounds("II*\0garbage"), TiffError);
}

// Found by fuzz_tiff: 65,535 samples a pixel on a 63,740-pixel-wide page claimed a 4 GB
// scanline buffer before a byte of pixels was read.
TEST_F(PackedItems, ATiffHeaderClaimingHugeScanlinesIsRefusedBeforeAllocating) {
  const std::string header(
      "\x49\x49\x2a\x00\x08\x00\x00\x00\x09\x00\x00\x01\x03\x00\x01\x00\x00\x00\xfc\xf8\x00\x00"
      "\x01\x01\x03\x00\x01\x00\x00\x00\x04\x00\x00\x00\x02\x01\x03\x00\x01\x00\x00\x00\x08\x00"
      "\x00\x00\x03\xfc\x03\x00\x01\x00\x00\x00\x01\x00\x00\x00\x06\x01\x03\x00\x01\x00\x00\x00"
      "\x01\x00\x00\x00\x11\x01\x04\x00\x01\x00\x00\x00\x7a\x00\x00\x00\x15\x01\x03\x00\x01\x00"
      "\x00\x00\xff\xff\x01\x00\x00\x00\x16\x01\x03\x00\x01\x00\x00\x00\x04\x00\x00\x00\x17\x01"
      "\x04\x00\x01\x00\x00\x00\x10\x00\x00\x01\x00\x00\x00\x00\x00\x00\x04\x00\x00\x00\x60\x70"
      "\x80\x90\xa0\xb0\xc0\xd0\xe0\xf0",
      140);
  EXPECT_THROW(tiff_decode_region(header, {0, 0, 64, 4}), TiffError);
}

TEST_F(PackedItems, AnItemPackedAsOneZipGivesTheCropsOfTheFolder) {
  const fs::path zip = pack_item(jp2_item->folder, *root / "strataTestBook.zip");
  const auto from_folder = crops_of(jp2_item->folder, "folder-out");
  const auto from_zip = crops_of(zip, "zip-out");
  EXPECT_EQ(from_zip, from_folder);
  EXPECT_FALSE(fs::exists(*root / "zip-out" / ".unpacked-strataTestBook"));  // scratch removed
}

TEST_F(PackedItems, ADamagedItemZipIsReportedNotThrown) {
  const fs::path zip = *root / "broken.zip";
  std::ofstream(zip) << "PK\x03\x04 not really a zip";
  ProblemLog problems;
  ExtractOptions o;
  o.out = *root / "broken-out";
  const ItemResult r = extract_item(zip, o, problems);
  EXPECT_TRUE(r.skipped);
  EXPECT_EQ(problems.total(), 1u);
}

}  // namespace
}  // namespace strata::books
