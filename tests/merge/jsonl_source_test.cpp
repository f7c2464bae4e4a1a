#include "merge/jsonl_source.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <mutex>
#include <set>

#include "extract/records.hpp"
#include "fixtures.hpp"
#include "testing/shared_data.hpp"

namespace strata::merge {
namespace {

namespace fs = std::filesystem;

struct Reading {
  std::vector<std::string> surts;  // of the records, in the order read
  std::vector<Problem> problems;
  Counters counters;
  uint64_t bytes = 0, lines = 0;
};

// Runs every source of `file` (one after the other) and gathers what they gave.
Reading read_all(const fs::path& file, unsigned workers) {
  Reading out;
  std::mutex mutex;
  JsonlReading reading;
  reading.problems = [&](const Problem& p) {
    std::lock_guard lock(mutex);
    out.problems.push_back(p);
  };
  reading.on_progress = [&](uint64_t bytes, uint64_t lines) {
    out.bytes += bytes;
    out.lines += lines;
  };
  auto sources = jsonl_file_sources(file, workers, reading);
  EXPECT_LE(sources.size(), size_t{workers} * 4);
  for (const auto& source : sources)
    source([&](const Record& r) { out.surts.push_back(surt_key(r)); }, out.counters);
  return out;
}

std::string line_of(int i) {
  auto r = testing::ref("(pt,s" + std::to_string(i) + ",)/x.jpg", "http://x/", "http://p/",
                        "20100101000000", std::string(static_cast<size_t>(i % 700), 'a'));
  return extract::to_jsonl(r);
}

// A file of more than 16 MiB is read as several pieces, split at line starts: every line is
// read once, bad lines are counted and reported with their byte offsets wherever they fall.
TEST(JsonlSource, PiecesReadEveryLineOnceAndReportBadLinesWithTheirOffsets) {
  const fs::path file = strata::testing::scratch_dir() / "part-00000.jsonl";
  std::vector<uint64_t> bad_offsets;
  size_t records = 0;
  {
    std::ofstream out(file, std::ios::binary);
    uint64_t at = 0;
    for (int i = 0; at < (uint64_t{40} << 20); ++i) {
      std::string line = i % 9973 == 5     ? std::string("{\"type\":\"ref\",\"imgSurt\":\n")
                         : i % 9973 == 17  ? std::string("{\"type\":\"warcinfo\"}\n")
                         : i % 9973 == 100 ? std::string("\n")
                                           : line_of(i);
      if (line.size() > 1 && line.find("imgAlt") == std::string::npos) bad_offsets.push_back(at);
      if (line.find("imgAlt") != std::string::npos) ++records;
      out << line;
      at += line.size();
    }
    out << R"({"type":"ref","imgSurt":"last line, no newline"})";
    ++records;
  }
  for (unsigned workers : {1u, 2u}) {
    Reading got = read_all(file, workers);
    EXPECT_EQ(got.surts.size(), records);
    EXPECT_EQ(got.surts.back(), "last line, no newline");
    EXPECT_EQ(std::set<std::string>(got.surts.begin(), got.surts.end()).size(), records);
    EXPECT_EQ(got.bytes, fs::file_size(file));
    ASSERT_EQ(got.problems.size(), bad_offsets.size());
    std::sort(got.problems.begin(), got.problems.end(),
              [](const Problem& a, const Problem& b) { return a.offset < b.offset; });
    for (size_t i = 0; i < bad_offsets.size(); ++i) {
      EXPECT_EQ(got.problems[i].offset, bad_offsets[i]);
      EXPECT_EQ(got.problems[i].file, file.string());
    }
    EXPECT_EQ(got.problems[0].kind, "malformed_json");
    EXPECT_NE(got.problems[0].detail.find("parse error"), std::string::npos);
    EXPECT_EQ(got.problems[1].kind, "not_a_record");
    EXPECT_EQ(got.counters.get("lines_malformed") + got.counters.get("lines_not_records"),
              static_cast<int64_t>(bad_offsets.size()));
  }
}

// A line longer than the read block (1 MiB) is read whole; a missing file is counted.
TEST(JsonlSource, LongLinesAndMissingFiles) {
  const fs::path file = strata::testing::scratch_dir() / "long.jsonl";
  auto r = testing::ref("(pt,long,)/x.jpg", "http://x/", "http://p/", "20100101000000",
                        std::string(3 << 20, 'a'));
  std::ofstream(file, std::ios::binary) << line_of(1) << extract::to_jsonl(r) << line_of(2);
  Reading got = read_all(file, 1);
  EXPECT_EQ(got.surts,
            (std::vector<std::string>{"(pt,s1,)/x.jpg", "(pt,long,)/x.jpg", "(pt,s2,)/x.jpg"}));
  EXPECT_TRUE(got.problems.empty());

  Reading missing = read_all(file.string() + ".missing", 2);
  EXPECT_EQ(missing.counters.get("input_files_unreadable"), 1);
  ASSERT_EQ(missing.problems.size(), 1u);
  EXPECT_EQ(missing.problems[0].kind, "unreadable_file");
}

}  // namespace
}  // namespace strata::merge
