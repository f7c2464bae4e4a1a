// A real crawl (aut's example.warc.gz, 2008) split record by record into three WARC files:
// indexed one part at a time, in any order, it gives the documents of indexing the three
// parts at once.
#include <gtest/gtest.h>

#include <fstream>

#include "archive/reader.hpp"
#include "testing/incremental.hpp"
#include "testing/shared_data.hpp"

namespace strata {
namespace {

namespace fs = std::filesystem;

// Copies the records of `source` (one gzip member each) round robin into `parts` files.
std::vector<fs::path> split_by_record(const fs::path& source, const fs::path& dir, int parts) {
  std::vector<std::pair<uint64_t, uint64_t>> records;
  auto reader = archive::ArchiveReader::open(source, {}, {});
  while (reader->next()) {
    reader->finish_record();
    records.emplace_back(reader->record().offset, reader->record().length);
  }
  fs::create_directories(dir);
  std::ifstream in(source, std::ios::binary);
  std::vector<fs::path> files;
  std::vector<std::ofstream> outs;
  for (int p = 0; p < parts; ++p) {
    files.push_back(dir / ("part-" + std::to_string(p) + ".warc.gz"));
    outs.emplace_back(files.back(), std::ios::binary);
  }
  std::string bytes;
  for (size_t i = 0; i < records.size(); ++i) {
    bytes.resize(records[i].second);
    in.seekg(static_cast<std::streamoff>(records[i].first));
    in.read(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    outs[i % parts] << bytes;
  }
  return files;
}

TEST(IncrementalRealCrawl, PartsInAnyOrderGiveTheDocumentsOfOneRun) {
  STRATA_REQUIRE_SHARED();
  const fs::path dir = testing::scratch_dir();
  const auto parts = split_by_record(
      testing::shared_data(
          "archives/archivesunleashed__aut/src/test/resources/warc/example.warc.gz"),
      dir / "aut-2008", 3);
  testing::add_archives(dir / "one-run", parts, dir / "work");
  const auto expected = testing::indexed_documents(dir / "one-run");
  ASSERT_GT(expected.size(), 20u);
  for (size_t p : {2, 0, 1}) testing::add_archives(dir / "by-part", {parts[p]}, dir / "work");
  EXPECT_EQ(testing::indexed_documents(dir / "by-part"), expected);
}

}  // namespace
}  // namespace strata
