// Our index of pywb's sample WARCs against the CDXJ/CDX files pywb ships, and offsets and
// lengths against solrwayback's verified CDX of the 2008 archive.org crawl.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <sstream>

#include "cdx/cdxj.hpp"
#include "cdx/index_file.hpp"
#include "testing/shared_data.hpp"

namespace {

std::vector<std::string> read_lines(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);)
    if (!line.empty() && line[0] != ' ') lines.push_back(line);
  return lines;
}

std::vector<std::string> sorted_index(const std::string& relative) {
  auto lines = strata::cdx::index_file(strata::testing::shared_data(relative), nullptr);
  strata::cdx::sort_lines(lines);
  return lines;
}

const std::string kPywb = "archives/webrecorder__pywb/sample_archive/";

}  // namespace

TEST(PywbSample, IanaMatchesShippedCdxjLineByLine) {
  STRATA_REQUIRE_SHARED();
  auto ours = sorted_index(kPywb + "warcs/iana.warc.gz");
  auto expected = read_lines(strata::testing::shared_data(kPywb + "cdxj/iana.cdxj"));
  ASSERT_EQ(ours.size(), expected.size());
  int revisit_status = 0;
  for (std::size_t i = 0; i < ours.size(); ++i) {
    // Deliberate difference: iana.cdxj was written by pywb's older indexer, which drops the
    // status of revisits; cdxj-indexer (our target) keeps the revisit's own HTTP status.
    std::string line = ours[i];
    std::size_t status = line.find(", \"status\": \"200\"");
    if (line.find("\"warc/revisit\"") != std::string::npos && status != std::string::npos) {
      line.erase(status, std::string_view(", \"status\": \"200\"").size());
      ++revisit_status;
    }
    EXPECT_EQ(line, expected[i]) << "line " << i;
  }
  EXPECT_EQ(revisit_status, 123);  // every revisit in iana.warc.gz carries an HTTP head
}

TEST(PywbSample, ExampleWarcMatchesShippedCdx) {
  STRATA_REQUIRE_SHARED();
  // example.cdxj is an older hand-trimmed index (its first line lacks mime and status), so
  // the CDX-11 file, which has every field, is the oracle: key, timestamp, url, mime,
  // status (- for revisits), digest, length, offset, filename.
  auto ours = sorted_index(kPywb + "warcs/example.warc.gz");
  auto expected = read_lines(strata::testing::shared_data(kPywb + "cdx/example.cdx"));
  ASSERT_EQ(ours.size(), expected.size());
  for (std::size_t i = 0; i < ours.size(); ++i) {
    std::istringstream cdx(expected[i]);
    std::string key, ts, url, mime, status, digest, redirect, meta, length, offset, file;
    cdx >> key >> ts >> url >> mime >> status >> digest >> redirect >> meta >> length >> offset >>
        file;
    EXPECT_TRUE(ours[i].starts_with(key + " " + ts + " {\"url\": \"" + url + "\", \"mime\": \"" +
                                    mime + "\""))
        << ours[i];
    for (const auto& field : {"\"digest\": \"" + digest + "\"", "\"length\": \"" + length + "\"",
                              "\"offset\": \"" + offset + "\"", "\"filename\": \"" + file + "\""})
      EXPECT_NE(ours[i].find(field), std::string::npos) << ours[i] << " lacks " << field;
  }
}

TEST(PywbSample, SolrwaybackOffsetsAndLengths) {
  STRATA_REQUIRE_SHARED();
  const std::string warc =
      "archives/archivesunleashed__aut/src/test/resources/warc/example.warc.gz";
  auto cdx = read_lines(strata::testing::shared_data(
      "archives/netarchivesuite__solrwayback/src/test/resources/example_warc/"
      "IAH-20080430204825-00000-blackbook.warc.gz.cdx"));
  ASSERT_GT(cdx.size(), 100u);
  // The CDX lists every record; collect its length per offset (the last two numeric fields
  // before the file name are length and offset in "CDX N b a m s k r M S V g" order).
  std::map<std::string, std::string> length_at;
  for (const auto& line : cdx) {
    std::istringstream in(line);
    std::vector<std::string> f;
    for (std::string t; in >> t;) f.push_back(t);
    if (f.size() >= 3) length_at[f[f.size() - 2]] = f[f.size() - 3];
  }
  auto ours = strata::cdx::index_file(strata::testing::shared_data(warc), nullptr);
  ASSERT_GT(ours.size(), 200u);
  for (const auto& line : ours) {
    auto field = [&](const std::string& name) {
      std::size_t at = line.find("\"" + name + "\": \"") + name.size() + 5;
      return line.substr(at, line.find('"', at) - at);
    };
    auto it = length_at.find(field("offset"));
    ASSERT_NE(it, length_at.end()) << line;
    EXPECT_EQ(it->second, field("length")) << line;
  }
}
