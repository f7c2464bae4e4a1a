// Record counts, offsets, lengths and digests on real archives, checked against the counts
// in shared/data/INVENTORY.md and the CDX files published beside the samples.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "read_helpers.hpp"
#include "testing/shared_data.hpp"

namespace strata::archive {
namespace {

using test::read_all;
using Counts = std::map<std::string, int>;

TEST(RealFiles, AutExampleWarc) {
  STRATA_REQUIRE_SHARED();
  auto s = read_all(testing::shared_data(
      "archives/archivesunleashed__aut/src/test/resources/warc/example.warc.gz"));
  EXPECT_EQ(s.by_type,
            (Counts{{"warcinfo", 1}, {"response", 299}, {"request", 261}, {"metadata", 261}}));
  EXPECT_TRUE(s.problems.empty());
  EXPECT_EQ(s.records[0].version, "WARC/0.17");
}

TEST(RealFiles, AutExampleArc) {
  STRATA_REQUIRE_SHARED();
  auto s = read_all(testing::shared_data(
      "archives/archivesunleashed__aut/src/test/resources/arc/example.arc.gz"));
  EXPECT_EQ(s.records.size(), 300u);
  EXPECT_EQ(s.by_type, (Counts{{"warcinfo", 1}, {"resource", 38}, {"response", 261}}));
  EXPECT_TRUE(s.problems.empty());
  EXPECT_EQ(s.records[1].date, "20080430204825");
  EXPECT_EQ(s.records[1].format, Format::arc);
}

TEST(RealFiles, PywbIanaRevisits) {
  STRATA_REQUIRE_SHARED();
  auto s = read_all(
      testing::shared_data("archives/webrecorder__pywb/sample_archive/warcs/iana.warc.gz"));
  EXPECT_EQ(s.by_type["revisit"], 123);
  EXPECT_TRUE(s.problems.empty());
  for (size_t i = 0; i < s.records.size(); ++i) {
    const Record& r = s.records[i];
    if (r.type != RecordType::revisit) continue;
    EXPECT_FALSE(r.payload_digest.empty());
    EXPECT_TRUE(r.http.present);
  }
}

TEST(RealFiles, BooksToScrape) {
  STRATA_REQUIRE_SHARED();
  auto s =
      read_all(testing::shared_data("archives/N0taN3rd__node-warc/test/files/books.toscrape.warc"));
  EXPECT_EQ(s.by_type, (Counts{{"response", 30}, {"request", 30}}));
  int jpegs = 0;
  for (size_t i = 0; i < s.records.size(); ++i)
    if (s.records[i].http.mime == "image/jpeg") {
      ++jpegs;
      EXPECT_EQ(s.payloads[i].substr(0, 3), "\xff\xd8\xff") << s.records[i].target_uri;
    }
  EXPECT_EQ(jpegs, 20);
}

TEST(RealFiles, TwitterGzipBrotliChunkedBodies) {
  STRATA_REQUIRE_SHARED();
  auto s = read_all(testing::shared_data(
      "archives/webrecorder__replayweb.page/mkdocs/site/docs/examples/netpreserve-twitter.warc"));
  int decoded = 0, images = 0;
  for (size_t i = 0; i < s.records.size(); ++i) {
    const Record& r = s.records[i];
    if (r.type != RecordType::response) continue;
    std::string coding(r.http.header("Content-Encoding"));
    if (r.http.mime.starts_with("image/")) {
      ++images;
      EXPECT_FALSE(s.payloads[i].empty()) << r.target_uri;
    }
    if ((coding == "gzip" || coding == "br") && r.http.mime.starts_with("text/html")) {
      EXPECT_NE(s.payloads[i].find("<"), std::string::npos) << r.target_uri;
      ++decoded;
    }
  }
  EXPECT_EQ(images, 69);
  EXPECT_GT(decoded, 0);
  for (const auto& p : s.problems) ADD_FAILURE() << to_string(p);
}

struct CdxLine {
  std::string mime, status, digest;
  uint64_t length = 0, offset = 0;
};

// " CDX N b a m s k r M S V g" files: key by offset.
std::map<uint64_t, CdxLine> read_cdx(const std::filesystem::path& path, const std::string& file) {
  std::map<uint64_t, CdxLine> out;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream f(line);
    std::vector<std::string> v;
    for (std::string x; f >> x;) v.push_back(x);
    if (v.size() != 11 || v[0] == "CDX" || v[10] != file) continue;
    CdxLine c{v[3], v[4], v[5], std::stoull(v[8]), std::stoull(v[9])};
    out[c.offset] = c;
  }
  return out;
}

TEST(RealFiles, SolrwaybackCdxOffsetsLengthsDigests) {
  STRATA_REQUIRE_SHARED();
  std::string name = "IAH-20080430204825-00000-blackbook.warc.gz";
  auto cdx = read_cdx(testing::shared_data("archives/netarchivesuite__solrwayback/src/test/"
                                           "resources/example_warc/" +
                                           name + ".cdx"),
                      name);
  ASSERT_EQ(cdx.size(), 822u);
  // The same blob as aut's example.warc.gz (INVENTORY.md).
  auto s = read_all(testing::shared_data(
                        "archives/archivesunleashed__aut/src/test/resources/warc/example.warc.gz"),
                    false);
  ASSERT_EQ(s.records.size(), 822u);
  int digests = 0;
  for (const Record& r : s.records) {
    auto it = cdx.find(r.offset);
    ASSERT_NE(it, cdx.end()) << r.offset;
    EXPECT_EQ(r.length, it->second.length) << r.offset;
    if (r.type == RecordType::response && r.payload_digest.starts_with("sha1:")) {
      EXPECT_EQ(r.payload_digest.substr(5), it->second.digest) << r.offset;
      ++digests;
    }
    if (r.http.status) {
      EXPECT_EQ(std::to_string(r.http.status), it->second.status);
    }
  }
  EXPECT_EQ(digests, 261);
}

TEST(RealFiles, PywbCdxOffsetsAndLengths) {
  STRATA_REQUIRE_SHARED();
  auto root = testing::shared_data("archives/webrecorder__pywb/sample_archive");
  int checked = 0;
  for (const auto& entry : std::filesystem::directory_iterator(root / "cdx")) {
    for (const auto& warc : std::filesystem::directory_iterator(root / "warcs")) {
      std::string name = warc.path().filename().string();
      auto cdx = read_cdx(entry.path(), name);
      if (cdx.empty()) continue;
      auto s = read_all(warc.path(), false);
      std::map<uint64_t, const Record*> by_offset;
      for (const auto& r : s.records) by_offset[r.offset] = &r;
      for (const auto& [offset, line] : cdx) {
        auto it = by_offset.find(offset);
        ASSERT_NE(it, by_offset.end()) << name << " @" << offset << " in " << entry.path();
        EXPECT_EQ(it->second->length, line.length) << name << " @" << offset;
        if (line.status != "-" && it->second->http.status) {
          EXPECT_EQ(std::to_string(it->second->http.status), line.status) << name << " @" << offset;
        }
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 190);
}

}  // namespace
}  // namespace strata::archive
