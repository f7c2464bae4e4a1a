// The `strata` binary as an operator runs it, on a real archive (aut's 2008 crawl).
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include <set>

#include "archive/reader.hpp"
#include "books/synthetic.hpp"
#include "core/digest.hpp"
#include "core/json.hpp"
#include "export/wacz_check.hpp"
#include "testing/shared_data.hpp"

namespace strata {
namespace {

namespace fs = std::filesystem;

struct Result {
  int code = -1;
  std::string out, err;
};

std::string slurp(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Runs `strata ARGS` with stdout and stderr in files (so not on a terminal).
Result strata(const std::string& args) {
  static int runs = 0;
  const fs::path dir = fs::temp_directory_path() /
                       ("strata-cli-" + std::to_string(::getpid()) + "-" + std::to_string(++runs));
  fs::create_directories(dir);
  const std::string command = std::string("'") + STRATA_BIN + "' " + args + " >'" +
                              (dir / "out").string() + "' 2>'" + (dir / "err").string() + "'";
  const int status = std::system(command.c_str());
  Result result{WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(dir / "out"),
                slurp(dir / "err")};
  fs::remove_all(dir);
  return result;
}

std::string archive() {
  return testing::shared_data(
             "archives/archivesunleashed__aut/src/test/resources/warc/example.warc.gz")
      .string();
}

// `strata index` of the archive into a fresh index, with `flags` placed as given.
Result index_archive(const fs::path& index, const std::string& before, const std::string& after,
                     const std::string& collection = "crawl-2008") {
  return strata(before + " index --index '" + index.string() + "' --collection " + collection +
                " --no-analysis '" + archive() + "' " + after);
}

size_t lines_of(const std::string& text) {
  return static_cast<size_t>(std::count(text.begin(), text.end(), '\n'));
}

TEST(StrataCli, IndexJsonIsOneObjectWithTheRealCounts) {
  STRATA_REQUIRE_SHARED();
  const fs::path index = testing::scratch_dir() / "index";
  const Result first = index_archive(index, "", "--json");
  ASSERT_EQ(first.code, 0) << first.err;
  ASSERT_EQ(lines_of(first.out), 1u) << first.out;
  const Json report = Json::parse(first.out);
  ASSERT_TRUE(report.is_object());
  const Json& applied = report["store"]["applied"];
  const int64_t documents = applied["documents"].get<int64_t>();
  EXPECT_GT(documents, 20);
  EXPECT_EQ(applied["written"], documents);
  EXPECT_EQ(report["summary"]["documents written"], documents);
  EXPECT_EQ(report["summary"]["documents in the index"], documents);
  EXPECT_GT(report["summary"]["records read"].get<int64_t>(), 200);
  EXPECT_EQ(report["problems"]["total"], 0);

  // The same archive again (under any collection name) stores no record and changes nothing.
  const Json again = Json::parse(index_archive(index, "--json", "", "crawl-copy").out);
  EXPECT_EQ(again["store"]["stored"]["inserted"], 0);
  EXPECT_EQ(again["summary"]["documents written"], 0);
  EXPECT_EQ(again["summary"]["documents in the index"], documents);
}

TEST(StrataCli, IndexPrintsTablesByDefault) {
  STRATA_REQUIRE_SHARED();
  const Result r = index_archive(testing::scratch_dir() / "index", "", "");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.front(), '{');
  EXPECT_NE(r.out.find("collection  crawl-2008\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("summary:\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("  documents written"), std::string::npos) << r.out;
  EXPECT_LT(lines_of(r.out), 20u) << r.out;
  EXPECT_EQ(r.err, "");  // no progress when stderr is not a terminal, without -v
}

TEST(StrataCli, GlobalFlagsBeforeOrAfterTheSubcommand) {
  STRATA_REQUIRE_SHARED();
  for (const auto& [before, after] :
       std::vector<std::pair<std::string, std::string>>{{"-v", ""},
                                                        {"", "-v"},
                                                        {"-vv --json", ""},
                                                        {"", "--json -vv"},
                                                        {"--quiet", ""},
                                                        {"", "--quiet"}}) {
    const Result r = index_archive(testing::scratch_dir() / "index", before, after);
    EXPECT_EQ(r.code, 0) << before << " | " << after << "\n" << r.err;
  }
  const Result quiet = index_archive(testing::scratch_dir() / "index", "", "-q");
  EXPECT_EQ(quiet.out, "");
  EXPECT_EQ(quiet.err, "");
}

// With -v and stderr not a terminal, each step leaves a final line with its true totals.
TEST(StrataCli, VerboseProgressLinesCountTheRightUnits) {
  STRATA_REQUIRE_SHARED();
  const Result r = index_archive(testing::scratch_dir() / "index", "", "-v --json");
  ASSERT_EQ(r.code, 0) << r.err;
  const Json report = Json::parse(r.out);
  const auto records = report["extract"]["records"].get<int64_t>();
  const auto lines = report["store"]["applied"]["written"].get<int64_t>();
  EXPECT_NE(r.err.find(" " + std::to_string(records) + " records  in "), std::string::npos)
      << r.err;  // the 1/4 extract line: records, not files (< 1,000: no separator)
  EXPECT_NE(r.err.find("2/4 merge "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(" " + std::to_string(lines) + " documents  in "), std::string::npos)
      << r.err;
}

TEST(StrataCli, SizesWithUnits) {
  STRATA_REQUIRE_SHARED();
  for (const char* size : {"1G", "512M", "1.5G", "1GiB", "100000000"}) {
    const Result r = index_archive(testing::scratch_dir() / "index", "",
                                   std::string("--memory ") + size + " --quiet");
    EXPECT_EQ(r.code, 0) << size << "\n" << r.err;
  }
  const Result bad = index_archive(testing::scratch_dir() / "index", "", "--memory 1X");
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.err.find("--memory"), std::string::npos) << bad.err;
  EXPECT_NE(bad.err.find("'1X' is not a size"), std::string::npos) << bad.err;
}

// The stages run one by one report the same figures as tables or as one JSON object each.
TEST(StrataCli, StageReportsAsJsonAndTables) {
  STRATA_REQUIRE_SHARED();
  const fs::path dir = testing::scratch_dir();
  const auto quoted = [](const fs::path& p) { return "'" + p.string() + "'"; };
  const Result extract =
      strata("extract --json --collection c -o " + quoted(dir / "x") + " " + quoted(archive()));
  ASSERT_EQ(extract.code, 0) << extract.err;
  const Json extracted = Json::parse(extract.out);
  EXPECT_EQ(extracted["archives"], 1);
  EXPECT_EQ(extracted["counters"]["records"], 822);

  const Result merge =
      strata("merge -i " + quoted(dir / "x") + " -o " + quoted(dir / "d") + " --memory 64M");
  ASSERT_EQ(merge.code, 0) << merge.err;
  EXPECT_NE(merge.out.find("table2:\n  stage "), std::string::npos) << merge.out;
  EXPECT_NE(merge.out.find("  Matching digest (job 2) "), std::string::npos) << merge.out;

  const Result docs =
      strata("index-docs --no-analysis --index " + quoted(dir / "i") + " --collection c " +
             quoted(dir / "d" / "documents.jsonl") + " --json");
  ASSERT_EQ(docs.code, 0) << docs.err;
  const Json indexed = Json::parse(docs.out);
  EXPECT_EQ(indexed["index"]["added"], indexed["index"]["lines"]);
  EXPECT_GT(indexed["index"]["added"].get<int64_t>(), 20);

  const Result compact =
      strata("--json compact --index " + quoted(dir / "i") + " --out " + quoted(dir / "c"));
  ASSERT_EQ(compact.code, 0) << compact.err;
  EXPECT_EQ(Json::parse(compact.out)["documents"], indexed["index"]["documents"]);
}

// Lines that are not records are skipped, counted and reported with their file and byte
// offset; the merge goes on (exit code 3) and gives the documents of the other lines.
TEST(StrataCli, MergeReportsBadLinesWithFileAndOffset) {
  STRATA_REQUIRE_SHARED();
  const fs::path dir = testing::scratch_dir();
  const auto quoted = [](const fs::path& p) { return "'" + p.string() + "'"; };
  ASSERT_EQ(strata("extract --collection c -o " + quoted(dir / "x") + " " + quoted(archive())).code,
            0);
  ASSERT_EQ(strata("merge -i " + quoted(dir / "x") + " -o " + quoted(dir / "good")).code, 0);
  const fs::path part = dir / "x" / "part-00000.jsonl";
  const uint64_t size = fs::file_size(part);
  std::ofstream(part, std::ios::app) << "{\"type\":\"ref\",\"imgSurt\":\n{\"type\":\"warcinfo\"}\n";
  const Result bad = strata("merge --json -i " + quoted(dir / "x") + " -o " + quoted(dir / "bad"));
  EXPECT_EQ(bad.code, 3) << bad.err;
  const Json report = Json::parse(bad.out);
  EXPECT_EQ(report["counters"]["lines_malformed"], 1);
  EXPECT_EQ(report["counters"]["lines_not_records"], 1);
  EXPECT_EQ(report["problems"]["total"], 2);
  const std::string first = report["problems"]["first"].dump();
  EXPECT_NE(first.find(part.string() + ":" + std::to_string(size) + ": malformed_json"),
            std::string::npos)
      << first;
  EXPECT_NE(first.find(part.string() + ":" + std::to_string(size + 25) + ": not_a_record"),
            std::string::npos)
      << first;
  EXPECT_EQ(slurp(dir / "bad" / "documents.jsonl"), slurp(dir / "good" / "documents.jsonl"));
}

// The safe search evaluation on the committed subset: the policy hides none of the neutral
// images, Arquivo's rule hides most of the five tiny pictograms among them (4 since the
// one-decode analysis path shifted a score just under its 0.49).
TEST(StrataCli, SafeSearchEvalReportsFalsePositivesAgainstArquivo) {
  STRATA_REQUIRE_SHARED();
  const fs::path subset = fs::path(STRATA_TESTS_DIR) / "analyze/safe_search_subset.tsv";
  const Result r = strata("--json safe-search-eval --set '" + subset.string() + "' --data '" +
                          testing::shared_dir()->string() + "'");
  if (r.code == 1 && r.err.find("setup-npm") != std::string::npos)
    GTEST_SKIP() << "nsfwjs model not installed (run scripts/setup-npm)";
  ASSERT_EQ(r.code, 0) << r.err << r.out;
  const Json report = Json::parse(r.out);
  EXPECT_EQ(report["images"], 20);
  EXPECT_EQ(report["rules"][0]["falsePositives"], 0);
  EXPECT_GE(report["rules"][1]["falsePositives"].get<int64_t>(), 4);
  EXPECT_EQ(report["rules"][0]["recall"], "-");  // no explicit image in the subset
  EXPECT_GE(report["sweep"].size(), 10u);
}

TEST(StrataCli, RecordsReportGoesToStderr) {
  STRATA_REQUIRE_SHARED();
  const Result r = strata("records --json '" + archive() + "'");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out.rfind("warcinfo ", 0), 0u) << r.out.substr(0, 200);
  const Json report = Json::parse(r.err);
  EXPECT_EQ(report["files"][archive()]["records"].get<int64_t>(), lines_of(r.out));
}

TEST(StrataCli, SimilarGroupsOfAnAnalysisFile) {
  const fs::path file = fs::temp_directory_path() / ("strata-similar-" + std::to_string(getpid()));
  {
    std::ofstream out(file);
    out << R"({"digest":"big","status":"ok","width":400,"height":300,"phash":"00000000ffffffff"})"
        << "\n"  // the leader: largest
        << R"({"digest":"small","status":"ok","width":200,"height":150,"phash":"00000000fffffff0"})"
        << "\n"  // 4 bits from it
        << R"({"digest":"other","status":"ok","width":200,"height":150,"phash":"ffffffff00000000"})"
        << "\n"
        << R"({"digest":"failed","status":"corrupt"})"
        << "\n"
        << "not json\n";
  }
  const Result r = strata("similar groups --json '" + file.string() + "'");
  fs::remove(file);
  EXPECT_EQ(r.code, 3) << r.err;  // a line was not an analysis record
  EXPECT_EQ(r.out,
            "{\"digest\":\"big\",\"group\":\"big\",\"size\":2}\n"
            "{\"digest\":\"small\",\"group\":\"big\",\"size\":2}\n"
            "{\"digest\":\"other\",\"group\":\"other\",\"size\":1}\n");
  const Json report = Json::parse(r.err);
  EXPECT_EQ(report["groups"], 1);
  EXPECT_EQ(report["images"]["without_phash"], 1);
  EXPECT_EQ(report["problems"]["total"], 1);
  EXPECT_EQ(strata("similar groups /nonexistent/analysis.jsonl").code, 4);
}

TEST(StrataCli, BooksExtractGoesOnPastABadItem) {
  const fs::path root = testing::scratch_dir();
  const books::SyntheticItem item = books::write_synthetic_item(root, books::SyntheticOptions{});
  const std::string out = (root / "out").string(), missing = (root / "no-such-item").string();
  const Result r = strata("books extract --json -o '" + out + "' '" + missing + "' '" +
                          item.folder.string() + "'");
  EXPECT_EQ(r.code, 3) << r.err;  // one item could not be read, the other was done
  const Json report = Json::parse(r.out);
  EXPECT_EQ(report["books"]["crops"], 6);
  EXPECT_EQ(report["books"]["items_done"], 1);
  EXPECT_EQ(report["books"]["dropped_size"], 2);
  EXPECT_EQ(report["problems"]["by_kind"]["bad_item"], 1);
  EXPECT_TRUE(fs::exists(root / "out" / "strataTestBook" / "images.jsonl"));
  EXPECT_EQ(
      strata("books extract --compat -q -o '" + out + "' '" + item.folder.string() + "'").code, 0);
  EXPECT_TRUE(fs::exists(root / "out" / "strataTestBook_imgs.zip"));
  EXPECT_EQ(
      strata("books extract --no-filter colour -o '" + out + "' '" + item.folder.string() + "'")
          .code,
      2);
  EXPECT_EQ(strata("books extract -q -o '" + out + "' '" + missing + "'").code, 4);
}

// The SHA-256 of every response record's payload in an exported WARC or WACZ.
std::set<std::string> payload_digests(const fs::path& file, ProblemLog& log) {
  auto reader = archive::ArchiveReader::open(file, {}, log.sink());
  std::set<std::string> payloads;
  while (reader->next()) {
    if (reader->record().type != archive::RecordType::response) continue;
    std::string payload;
    reader->read_payload(payload);
    payloads.insert(sha256_hex(payload));
  }
  return payloads;
}

// `strata export` on a generated sample (strata sample, with its revisits) indexed without
// analysis: every format written whole, the WARC and WACZ read back with no problem and their
// payloads' SHA-256 the documents' digests, the WACZ valid; a bad format is a usage error.
// The same sample as a sharded index (--shards 3) exports the same images.
TEST(StrataCli, ExportWritesEveryFormatOfASample) {
  const fs::path dir = testing::scratch_dir();
  const std::string index = (dir / "index").string();
  ASSERT_EQ(strata("sample -q --scale tiny --out '" + (dir / "sample").string() + "'").code, 0);
  ASSERT_EQ(strata("index -q --no-analysis --index '" + index + "' --collection all '" +
                   (dir / "sample").string() + "'")
                .code,
            0);
  const std::string query = "export --json --index '" + index + "' '' --safe-search off ";
  const Result rows =
      strata(query + "--format jsonl --fields imgDigest -o '" + (dir / "all.jsonl").string() + "'");
  ASSERT_EQ(rows.code, 0) << rows.err;
  std::set<std::string> digests;
  std::istringstream lines(slurp(dir / "all.jsonl"));
  for (std::string line; std::getline(lines, line);)
    digests.insert(Json::parse(line)["imgDigest"].get<std::string>());
  EXPECT_EQ(Json::parse(rows.out)["written"], digests.size());
  for (const std::string format : {"warc", "wacz", "zip", "csv"}) {
    const fs::path out = dir / ("all." + format);
    const Result r = strata(query + "--format " + format + " -o '" + out.string() + "'");
    ASSERT_EQ(r.code, 0) << format << r.err;
    EXPECT_EQ(Json::parse(r.out)["written"], digests.size()) << format;
    EXPECT_TRUE(fs::exists(out) && !fs::exists(out.string() + ".part")) << format;
    if (format == "zip" || format == "csv") continue;
    ProblemLog log;
    EXPECT_EQ(payload_digests(out, log), digests) << format;
    EXPECT_EQ(log.total(), 0u) << format;
  }
  EXPECT_EQ(exporter::check_wacz(dir / "all.wacz"), std::vector<std::string>{});
  EXPECT_EQ(strata(query + "--format pdf -o '" + (dir / "x").string() + "'").code, 2);

  const std::string sharded = (dir / "sharded").string();
  ASSERT_EQ(strata("index -q --no-analysis --shards 3 --index '" + sharded +
                   "' --collection all '" + (dir / "sample").string() + "'")
                .code,
            0);
  const fs::path out = dir / "sharded.warc";
  const Result r = strata("export --json --index '" + sharded + "' '' --safe-search off " +
                          "--format warc -o '" + out.string() + "'");
  ASSERT_EQ(r.code, 0) << r.err;
  ProblemLog log;
  EXPECT_EQ(payload_digests(out, log), digests);
  EXPECT_EQ(log.total(), 0u);
}

}  // namespace
}  // namespace strata
