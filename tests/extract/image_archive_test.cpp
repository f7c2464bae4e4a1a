// Image headers of the 55 real images captured in aut's example.warc.gz (2008 crawl of
// archive.org). Expected values were taken from file(1) on the extracted payloads.
#include <gtest/gtest.h>

#include <map>

#include "archive/reader.hpp"
#include "extract/image_info.hpp"
#include "extract/mime_sniff.hpp"
#include "testing/shared_data.hpp"

namespace strata::extract {
namespace {

struct Expected {
  const char* url;
  const char* mime;
  int width, height;
  bool progressive;
  int orientation;
};

TEST(ImageArchive, ExampleWarcImages) {
  STRATA_REQUIRE_SHARED();
  const Expected expected[] = {
      {"http://www.archive.org/images/logoc.jpg", "image/jpeg", 70, 56, false, 0},
      {"http://www.archive.org/images/hewlett.jpg", "image/jpeg", 300, 116, false, 1},
      {"http://www.archive.org/images/LOCLogoSmall.jpg", "image/jpeg", 275, 300, true, 1},
      {"http://www.archive.org/images/sloan.jpg", "image/jpeg", 100, 108, true, 1},
      {"http://www.archive.org/images/logo.jpg", "image/jpeg", 84, 70, false, 0},
      {"http://www.archive.org/images/archive.small.jpg", "image/jpeg", 300, 225, false, 1},
      {"http://www.archive.org/images/alexalogo-archive.gif", "image/gif", 304, 36, false, 0},
      // Interlaced (image descriptor flags 0x40, checked by hand; file(1) does not say).
      {"http://www.archive.org/images/ALA_book_logo.gif", "image/gif", 100, 101, true, 0},
      {"http://www.archive.org/images/orange_arrow.gif", "image/gif", 8, 11, false, 0},
      {"http://www.archive.org/images/star.png", "image/png", 14, 12, false, 0},
      {"http://www.archive.org/images/clicktoplay.png", "image/png", 320, 240, false, 0},
      {"http://i.creativecommons.org/l/by-sa/3.0/88x31.png", "image/png", 88, 31, false, 0},
  };
  std::map<std::string, ImageInfo> seen;
  std::map<std::string, int> per_mime;
  auto reader = archive::ArchiveReader::open(
      testing::shared_data(
          "archives/archivesunleashed__aut/src/test/resources/warc/example.warc.gz"),
      {}, [](const Problem&) {});
  ASSERT_TRUE(reader);
  while (reader->next()) {
    if (reader->record().type_name != "response" ||
        reader->record().http.mime.find("image") == std::string::npos)
      continue;
    std::string url = reader->record().target_uri, body;
    reader->read_payload(body);
    std::string mime = sniff_image_mime(body);
    ++per_mime[mime];
    auto info = read_image_info(body);
    ASSERT_TRUE(info.has_value()) << url;
    EXPECT_TRUE(info->size_known) << url;
    seen[url] = *info;
  }
  EXPECT_EQ(per_mime["image/jpeg"], 18);
  EXPECT_EQ(per_mime["image/gif"], 29);
  EXPECT_EQ(per_mime["image/png"], 8);
  EXPECT_EQ(per_mime[""], 0);
  for (const Expected& e : expected) {
    SCOPED_TRACE(e.url);
    ASSERT_TRUE(seen.count(e.url));
    const ImageInfo& info = seen[e.url];
    EXPECT_EQ(info.mime, e.mime);
    EXPECT_EQ(info.width, e.width);
    EXPECT_EQ(info.height, e.height);
    EXPECT_EQ(info.progressive, e.progressive);
    EXPECT_EQ(info.orientation, e.orientation);
  }
  EXPECT_FALSE(passes_size_gates(seen["http://www.archive.org/images/star.png"]));
  EXPECT_TRUE(passes_size_gates(seen["http://www.archive.org/images/ALA_book_logo.gif"]));
}

}  // namespace
}  // namespace strata::extract
