#include "merge/record_reader.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "extract/stage.hpp"
#include "fixtures.hpp"
#include "merge/folder.hpp"
#include "testing/shared_data.hpp"

namespace strata::merge {
namespace {

using Result = RecordReader::Result;

// What nlohmann's reader (record_from_json, the reader before simdjson) makes of a line: the
// verdict, and the record as JSON.
std::pair<Result, std::string> nlohmann_reading(const std::string& line) {
  try {
    Record record;
    if (!record_from_json(Json::parse(line), record)) return {Result::not_record, ""};
    return {Result::record, record_to_json(record).dump()};
  } catch (const Json::exception&) {
    return {Result::malformed, ""};
  }
}

// Reads every line with one reader (its Record reused, as a source does) and expects what
// nlohmann makes of each.
void expect_nlohmann_readings(const std::vector<std::string>& lines) {
  RecordReader reader;
  Record record;
  for (const auto& line : lines) {
    auto [verdict, json] = nlohmann_reading(line);
    Result got = reader.read(line, record);
    EXPECT_EQ(got, verdict) << line;
    if (got == Result::record && verdict == Result::record) {
      EXPECT_EQ(record_to_json(record).dump(), json) << line;
    }
    if (got == Result::malformed) {
      EXPECT_FALSE(reader.error().empty()) << line;
    }
  }
}

std::string line_of(const Record& record) {
  return std::visit(
      [](const auto& r) -> std::string {
        if constexpr (requires { extract::to_jsonl(r); }) {
          std::string line = extract::to_jsonl(r);
          line.pop_back();  // the '\n'
          return line;
        } else {
          return record_to_json(Record(r)).dump();
        }
      },
      record);
}

TEST(RecordReader, ReadsWhatExtractionWritesAsNlohmannDoes) {
  auto c = testing::capture("(pt,a,)/x.jpg", "http://a.pt/x.jpg", "20100101000000", "d1");
  c.offset = UINT64_MAX;
  c.status = -1;
  c.inline_ = true;
  auto r = testing::ref("(pt,a,)/x.jpg", "http://a.pt/x.jpg", "http://a.pt/", "20100101000000",
                        "alt \"quoted\" \\ back\tslash \u00e9\u4e2d \U0001F600 \x01 ctrl");
  r.imgCaption = std::string(100'000, 'c');
  r.imagesInPage = INT32_MAX;
  auto v = testing::revisit("(pt,a,)/x.jpg", "20120101000000", "sha1:X", "(pt,b,)/y.jpg");
  v.refersToDate = "20110101000000";
  auto sparse = testing::capture("", "", "", "");
  expect_nlohmann_readings({line_of(c), line_of(r), line_of(v), line_of(sparse), line_of(r),
                            line_of(DroppedReferences{7})});
}

// Lines extraction never writes go to nlohmann, so their verdicts and records stay as they
// were; a reused Record keeps nothing of the line before.
TEST(RecordReader, OddLinesGetNlohmannsVerdict) {
  const std::string full = line_of(
      testing::ref("(pt,a,)/x.jpg", "http://a.pt/x.jpg", "http://a.pt/", "20100101000000", "alt"));
  expect_nlohmann_readings({
      full,
      R"({"type":"ref","imgUrl":"u"})",  // missing fields: defaults
      full,
      R"({"imgSurt":"s","type":"ref"})",                        // "type" not first
      R"({"type":"ref","imgSurt":"s","extra":[1,{"a":2}]})",    // unknown field
      R"({"type":"ref","imgSurt":"a","imgSurt":"b"})",          // a repeated key: the last
      R"({"type":"ref","imgSurt":"a","imgSurt":null})",         // null: the default
      R"({"type":"ref","type":"image","imgSurt":"a"})",         // two types
      R"({"type":"image","status":200.0,"offset":1e3})",        // numbers as floats
      R"({"type":"image","status":true,"inline":1})",           // booleans and numbers mixed
      R"({"type":"image","status":99999999999,"offset":-1})",   // out of range
      R"({"type":"image","offset":123456789012345678901234})",  // beyond 64 bits
      R"({"type":"image","width":"640"})",                      // a string for a number
      R"({"type":"dropped","count":3})",                        // a job-1 note
      R"({"type":"warcinfo","imgSurt":"s"})",                   // not a record
      R"({"type":7})",
      R"(["type","ref"])",
      R"("ref")",
      "{}",
      "null",
      "  ",
      R"({"type":"ref","imgSurt":"s")",              // truncated
      R"({"type":"ref","imgSurt":"s"} {})",          // trailing text
      R"({"type":"ref","imgSurt":"s",})",            // trailing comma
      "{\"type\":\"ref\",\"imgAlt\":\"\xff\xfe\"}",  // invalid UTF-8
      "{\"type\":\"ref\",\"imgAlt\":\"a\x01"
      "b\"}",                                 // unescaped control byte
      R"({"type":"ref","imgAlt":"\ud800"})",  // lone surrogate
      "\xef\xbb\xbf{\"type\":\"ref\"}",       // byte order mark
      full + "\r",
  });
}

// The extraction output of real archives reads the same, line by line, and merges into the
// same documents as through nlohmann, with one job or several.
TEST(RecordReader, RealExtractionOutputMergesAsThroughNlohmann) {
  STRATA_REQUIRE_SHARED();
  const auto dir = strata::testing::scratch_dir();
  extract::ExtractOptions options;
  options.collection = "iana";
  // Revisits (pywb's iana crawl), pages and images (aut's 2008 crawl).
  std::vector<std::filesystem::path> archives = {
      strata::testing::shared_data("archives/webrecorder__pywb/sample_archive/warcs/iana.warc.gz"),
      strata::testing::shared_data(
          "archives/archivesunleashed__aut/src/test/resources/warc/example.warc.gz")};
  std::filesystem::create_directories(dir / "x");
  extract::run_extraction(archives, options, dir / "x", 1, {}, nullptr);
  std::vector<std::string> lines;
  std::vector<Source> nlohmann_sources;
  for (const auto& file : extraction_files(dir / "x")) {
    std::ifstream text(file);
    for (std::string line; std::getline(text, line);) lines.push_back(line);
    nlohmann_sources.push_back([file](const RecordEmit& emit, Counters&) {
      std::ifstream in(file);
      Record record;
      for (std::string line; std::getline(in, line);)
        if (record_from_json(Json::parse(line), record)) emit(record);
    });
  }
  ASSERT_GT(lines.size(), 100u);
  expect_nlohmann_readings(lines);

  MergeOptions merge;
  merge.work_dir = dir / "work";
  std::ostringstream expected;
  run_merge(nlohmann_sources, merge, expected);
  ASSERT_GT(expected.str().size(), 1000u);
  for (unsigned jobs : {1u, 2u}) {
    merge.jobs = jobs;
    auto result = merge_folder(dir / "x", dir / ("docs" + std::to_string(jobs)), merge, nullptr);
    ASSERT_TRUE(result.error.empty()) << result.error;
    std::ifstream in(result.documents);
    std::stringstream documents;
    documents << in.rdbuf();
    EXPECT_EQ(documents.str(), expected.str()) << jobs << " jobs";
  }
}

}  // namespace
}  // namespace strata::merge
