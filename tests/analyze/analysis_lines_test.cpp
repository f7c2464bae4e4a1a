#include "analyze/analysis_lines.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "testing/shared_data.hpp"

namespace strata::analyze {
namespace {

namespace fs = std::filesystem;

std::string digest(int n) {
  std::string d = std::to_string(n);
  return std::string(64 - d.size(), 'a') + d;
}

std::string line_of(int n, int version) {
  return R"({"digest":")" + digest(n) + R"(","status":"ok","version":)" + std::to_string(version) +
         "}";
}

// What a scan of the whole file keeps: the lines of the wanted digests, in file order.
std::vector<std::string> scanned(const fs::path& file, const std::vector<std::string>& wanted) {
  const std::set<std::string> digests(wanted.begin(), wanted.end());
  std::vector<std::string> lines;
  std::ifstream in(file);
  for (std::string line; std::getline(in, line);)
    if (digests.count(record_digest(line))) lines.push_back(line);
  return lines;
}

std::vector<std::string> looked_up(const fs::path& file, const std::vector<std::string>& wanted) {
  std::vector<std::string> lines;
  for_each_analysis_line(file, {wanted.begin(), wanted.end()},
                         [&](std::string_view line) { lines.emplace_back(line); });
  return lines;
}

void append(const fs::path& file, const std::string& text) {
  std::ofstream(file, std::ios::app | std::ios::binary) << text;
}

TEST(AnalysisLines, AnswersAsAScanWhileTheFileGrows) {
  const fs::path file = testing::scratch_dir() / "analysis.jsonl";
  std::mt19937 rng(7);
  int version = 0;
  for (int round = 0; round < 6; ++round) {
    std::string text;
    for (int i = 0; i < 200; ++i) text += line_of(int(rng() % 300), version++) + '\n';
    if (round == 2) text += R"({"status":"ok","digest":")" + digest(5) + "\"}\n";  // other order
    if (round == 3) text += "not json\n\n";
    append(file, text);
    std::vector<std::string> wanted;
    for (int i = 0; i < 40; ++i) wanted.push_back(digest(int(rng() % 320)));
    wanted.push_back(digest(5));
    EXPECT_EQ(looked_up(file, wanted), scanned(file, wanted)) << "round " << round;
    EXPECT_TRUE(fs::exists(analysis_offsets_file(file)));
  }
}

TEST(AnalysisLines, ATableNotDescribingTheFileIsMadeAgain) {
  const fs::path file = testing::scratch_dir() / "analysis.jsonl";
  std::string text;
  for (int i = 0; i < 100; ++i) text += line_of(i, i) + '\n';
  append(file, text);
  const std::vector<std::string> wanted{digest(3), digest(50), digest(99)};
  EXPECT_EQ(looked_up(file, wanted).size(), 3u);

  // Rewritten in place with the same length: other lines at the table's offsets.
  std::string rewritten;
  for (int i = 0; i < 100; ++i) rewritten += line_of(99 - i, i) + '\n';
  std::ofstream(file, std::ios::binary | std::ios::trunc) << rewritten;
  EXPECT_EQ(looked_up(file, wanted), scanned(file, wanted));
  // Shorter.
  std::ofstream(file, std::ios::binary | std::ios::trunc) << line_of(50, 7) << '\n';
  EXPECT_EQ(looked_up(file, wanted), (std::vector<std::string>{line_of(50, 7)}));
  // A damaged table.
  std::ofstream(analysis_offsets_file(file), std::ios::binary | std::ios::trunc) << "garbage";
  EXPECT_EQ(looked_up(file, wanted), (std::vector<std::string>{line_of(50, 7)}));
  // None at all, and no file.
  fs::remove(analysis_offsets_file(file));
  EXPECT_EQ(looked_up(file, wanted), (std::vector<std::string>{line_of(50, 7)}));
  fs::remove(file);
  EXPECT_TRUE(looked_up(file, wanted).empty());
}

TEST(AnalysisLines, ATornLastLineIsReadAsAScanReadsIt) {
  const fs::path file = testing::scratch_dir() / "analysis.jsonl";
  append(file, line_of(1, 0) + '\n' + line_of(2, 0).substr(0, 80));  // a kill mid-line
  const std::vector<std::string> wanted{digest(1), digest(2), digest(3)};
  EXPECT_EQ(looked_up(file, wanted), scanned(file, wanted));
  EXPECT_EQ(looked_up(file, wanted).size(), 2u);
  // The next run appends after it: one long line, whose digest is the torn line's.
  append(file, line_of(3, 1) + '\n' + line_of(1, 2) + '\n');
  EXPECT_EQ(looked_up(file, wanted), scanned(file, wanted));
  EXPECT_EQ(looked_up(file, wanted).size(), 3u);
}

TEST(AnalysisLines, LongLinesAndManyRecordsOfOneDigest) {
  const fs::path file = testing::scratch_dir() / "analysis.jsonl";
  std::string text;
  for (int i = 0; i < 30; ++i)
    text +=
        R"({"digest":")" + digest(i % 3) + R"(","pad":")" + std::string(5000 + i, 'x') + "\"}\n";
  append(file, text);
  const std::vector<std::string> wanted{digest(1)};
  EXPECT_EQ(looked_up(file, wanted).size(), 10u);
  append(file, line_of(1, 9) + '\n');
  EXPECT_EQ(looked_up(file, wanted), scanned(file, wanted));
}

}  // namespace
}  // namespace strata::analyze
