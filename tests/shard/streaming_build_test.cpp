// The sharded build as Hadoop Streaming jobs (scripts/streaming-index, docs/scale.md) run by
// the local harness (scripts/streaming-harness: several reducers with Hadoop's partitioners,
// values in arbitrary order within a key, one archive path a map task, killed task attempts
// run again) with 1, 3 and 7 reducers, over the tiny generated sample and real crawls: the
// extraction, the merged documents and every index shard equal those of the single-machine
// commands (strata extract, strata merge, strata index --shards) byte for byte.
#include <gtest/gtest.h>
#include <xapian.h>

#include <sys/wait.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "index/document_builder.hpp"
#include "index/schema.hpp"
#include "index/shard_layout.hpp"
#include "index/stored_data.hpp"
#include "store/incremental.hpp"
#include "testing/incremental.hpp"
#include "testing/shared_data.hpp"

namespace strata {
namespace {

namespace fs = std::filesystem;

constexpr size_t kShards = 3;
constexpr const char* kTaskSeconds = "60";
constexpr const char* kJobsSeconds = "150";
const std::string kHarness = std::string(STRATA_SCRIPTS) + "/streaming-harness";

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

// The files of `dir` whose names start with `prefix`, concatenated in name order.
std::string concatenated(const fs::path& dir, const std::string& prefix) {
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(dir))
    if (entry.path().filename().string().rfind(prefix, 0) == 0) files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  std::string all;
  for (const auto& file : files) all += read_file(file);
  return all;
}

void run(const std::string& command) {
  ASSERT_EQ(std::system(command.c_str()), 0) << command;
}

// Every document of a shard in docid order: its stored data (uncompressed), values and terms
// with their positions' count: what a search can see of it.
std::vector<std::string> dump(const fs::path& folder) {
  Xapian::Database db(folder.string());
  index::StoredData stored(db);
  std::vector<std::string> out;
  for (auto it = db.postlist_begin(""); it != db.postlist_end(""); ++it) {
    const Xapian::Document xd = db.get_document(*it);
    std::string line = std::to_string(*it) + " " + stored.unpack(xd.get_data());
    for (auto v = xd.values_begin(); v != xd.values_end(); ++v)
      line += " v" + std::to_string(v.get_valueno()) + "=" + *v;
    for (auto t = xd.termlist_begin(); t != xd.termlist_end(); ++t)
      line += " " + *t + ":" + std::to_string(t.get_wdf()) + ":" +
              std::to_string(t.positionlist_count());
    out.push_back(line);
  }
  return out;
}

class StreamingBuildTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new fs::path(testing::scratch_dir());
    sample_ = new fs::path(testing::make_tiny_sample("streaming-build"));
    std::vector<fs::path> archives;
    for (const auto& entry : fs::recursive_directory_iterator(*sample_))
      if (entry.is_regular_file() && entry.path().string().find("/truth") == std::string::npos)
        archives.push_back(entry.path());
    if (testing::shared_dir())
      for (const char* path :
           {"archives/archivesunleashed__aut/src/test/resources/warc/example.warc.gz",
            "archives/webrecorder__pywb/sample_archive/warcs/iana.warc.gz"})
        archives.push_back(testing::shared_data(path));
    std::sort(archives.begin(), archives.end());  // as strata extract orders its inputs
    std::ofstream list(*dir_ / "archives.txt");
    for (const auto& a : archives) list << a.string() << '\n';
    archives_ = archives.size();
  }
  static void TearDownTestSuite() {
    fs::remove_all(sample_->parent_path());
    delete sample_;
    delete dir_;
  }

  // The single-machine run, once.
  static const fs::path& single() {
    static const fs::path base = [] {
      const fs::path b = *dir_ / "single";
      const std::string strata = STRATA_BINARY, list = "@" + (*dir_ / "archives.txt").string();
      const std::string quiet = " >/dev/null 2>>" + (*dir_ / "single.log").string();
      run(strata + " extract --collection web --jobs 1 -o " + (b / "extract").string() + " " +
          list + quiet);
      run(strata + " merge --jobs 1 -i " + (b / "extract").string() + " -o " +
          (b / "merge").string() + quiet);
      run(strata + " index --no-analysis --jobs 1 --collection web --shards " +
          std::to_string(kShards) + " --index " + (b / "index").string() + " " + list + quiet);
      return b;
    }();
    return base;
  }

  // The Streaming jobs with `reducers` reducers; `kill`: task attempts killed half way. A task
  // attempt gets kTaskSeconds and the whole build kJobsSeconds: a harness that hangs fails the
  // test instead of CI.
  static fs::path streaming(size_t reducers, const std::string& kill) {
    const fs::path out = *dir_ / ("streaming-" + std::to_string(reducers));
    run("STREAMING_HARNESS_KILL=" + kill + " STREAMING_HARNESS_TASK_TIMEOUT=" + kTaskSeconds +
        " STRATA=" + STRATA_BINARY + " timeout -k 5 " + kJobsSeconds + " sh " + STRATA_SCRIPTS +
        "/streaming-index " + (*dir_ / "archives.txt").string() + " web " +
        std::to_string(kShards) + " " + std::to_string(reducers) + " " + (out / "work").string() +
        " " + (out / "index").string() + " --no-analysis 2>" + (out.string() + ".log"));
    return out;
  }

  void expect_as_single(const fs::path& out) {
    const fs::path& base = single();
    // Extraction: the map tasks' records, in input order, are strata extract's.
    const std::string extracted = concatenated(out / "work" / "extract", "part-m-");
    EXPECT_GT(extracted.size(), 1000u);
    EXPECT_TRUE(extracted == concatenated(base / "extract", "part-")) << "extraction differs";
    // Merge: the reducers' documents, merged in key order, are strata merge's.
    std::vector<std::pair<std::string, std::string>> keyed;
    std::istringstream lines(concatenated(out / "work" / "docs", "part-r-"));
    for (std::string line; std::getline(lines, line);) {
      const size_t tab = line.find('\t');
      ASSERT_NE(tab, std::string::npos) << line;
      keyed.emplace_back(line.substr(0, tab), line.substr(tab + 1));
    }
    std::sort(keyed.begin(), keyed.end());
    std::string merged;
    for (const auto& [key, doc] : keyed) merged += doc + '\n';
    const std::string expected = read_file(base / "merge" / "documents.jsonl");
    EXPECT_GT(keyed.size(), 50u);
    EXPECT_TRUE(merged == expected) << "documents differ: " << keyed.size() << " documents";
    // Index: each shard the same documents, in the same docids, with the same data and terms.
    EXPECT_EQ(index::shard_count(out / "index"), kShards);
    size_t documents = 0;
    for (size_t k = 0; k < kShards; ++k) {
      const auto got = dump(index::shard_folder(out / "index", k));
      const auto want = dump(index::shard_folder(base / "index", k));
      EXPECT_EQ(got.size(), want.size()) << "shard " << k;
      EXPECT_TRUE(got == want) << "shard " << k << " differs";
      documents += got.size();
    }
    EXPECT_EQ(documents, keyed.size());
    // Counters came back through stderr's reporter lines.
    const Json counters = Json::parse(read_file(out / "work" / "extract" / "_counters.json"));
    EXPECT_EQ(counters["counters"]["strata-extract.archives"], archives_);
  }

  static inline fs::path* dir_ = nullptr;
  static inline fs::path* sample_ = nullptr;
  static inline size_t archives_ = 0;
};

// The Streaming build ends with the record store `strata index` makes (step 6 of
// scripts/streaming-index): the same collections, and a later `strata index` of a copy of an
// archive (new captures of the same images) gives the same shards on both.
TEST_F(StreamingBuildTest, OneReducerGivesTheSingleMachineRunThenALaterAddAsIt) {
  const fs::path out = streaming(1, "");
  expect_as_single(out);
  EXPECT_EQ(store::incremental_problem(out / "index"), "");
  EXPECT_EQ(store::list_collections(out / "index"), store::list_collections(single() / "index"));
  std::string first;
  std::getline(std::ifstream(*dir_ / "archives.txt"), first);
  const fs::path copy = out / "later" / fs::path(first).filename();
  fs::create_directories(copy.parent_path());
  fs::copy_file(first, copy);
  for (const fs::path& index : {out / "index", out / "single-index"}) {
    if (index == out / "single-index")
      fs::copy(single() / "index", index, fs::copy_options::recursive);
    run(std::string(STRATA_BINARY) + " index --no-analysis --jobs 1 --collection later --index " +
        index.string() + " " + copy.string() + " >/dev/null 2>>" + (out / "later.log").string());
  }
  EXPECT_EQ(store::list_collections(out / "index"), store::list_collections(out / "single-index"));
  for (size_t k = 0; k < kShards; ++k) {
    const auto got = dump(index::shard_folder(out / "index", k));
    EXPECT_TRUE(got == dump(index::shard_folder(out / "single-index", k))) << "shard " << k;
    EXPECT_NE(got, dump(index::shard_folder(single() / "index", k))) << "the add changed nothing";
  }
}

TEST_F(StreamingBuildTest, ThreeReducersWithKilledTasksGiveTheSingleMachineRun) {
  const fs::path out = streaming(3, "map:0,map:2,reduce:1");
  expect_as_single(out);
  const Json attempts =
      Json::parse(read_file(out / "work" / "index" / "_counters.json"))["attempts"];
  EXPECT_EQ(attempts["failed"], 3) << attempts.dump();  // maps 0 and 2, reduce 1
}

TEST_F(StreamingBuildTest, SevenReducersGiveTheSingleMachineRun) {
  expect_as_single(streaming(7, "reduce:6"));
}

// A killed attempt of a task that writes as it reads, with more input than a pipe holds: the
// harness reads its output while writing its input (it used to wait on a full stdin pipe while
// the task waited on a full stdout pipe, forever), and the retried attempt gives all the lines.
TEST(StreamingHarnessTest, KilledTaskWritingAsItReadsIsRetried) {
  const fs::path dir = testing::scratch_dir();
  std::string lines;
  for (int i = 0; i < 40000; ++i) lines += std::to_string(i) + "\ta line of a large split\n";
  std::ofstream(dir / "input.txt", std::ios::binary) << lines;  // ~1 MB: many pipes full
  run("STREAMING_HARNESS_KILL=map:0 timeout -k 5 60 " + kHarness + " -input " +
      (dir / "input.txt").string() + " -output " + (dir / "out").string() +
      " -numReduceTasks 0 -mapper cat 2>" + (dir / "harness.log").string());
  EXPECT_TRUE(read_file(dir / "out" / "part-m-00000") == lines);
  const Json attempts = Json::parse(read_file(dir / "out" / "_counters.json"))["attempts"];
  EXPECT_EQ(attempts["map"], 2) << attempts.dump();
  EXPECT_EQ(attempts["failed"], 1) << attempts.dump();
  fs::remove_all(dir);
}

// A task that hangs is killed at mapreduce.task.timeout and retried; after the last attempt the
// job fails, with the reason on stderr, instead of hanging.
TEST(StreamingHarnessTest, HungTaskIsKilledAtTheTaskTimeout) {
  const fs::path dir = testing::scratch_dir();
  std::ofstream(dir / "input.txt") << "one line\n";
  const auto started = std::chrono::steady_clock::now();
  const int status =
      std::system(("timeout -k 5 60 " + kHarness + " -D mapreduce.task.timeout=300 -input " +
                   (dir / "input.txt").string() + " -output " + (dir / "out").string() +
                   " -numReduceTasks 0 -mapper 'sleep 50' 2>" + (dir / "harness.log").string())
                      .c_str());
  const auto seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 1);  // the harness's failure, not timeout's 124
  EXPECT_LT(seconds.count(), 30);
  const std::string log = read_file(dir / "harness.log");
  EXPECT_NE(log.find("attempt killed after 0.3 s (mapreduce.task.timeout)"), std::string::npos)
      << log;
  EXPECT_NE(log.find("map task 0 failed 4 times"), std::string::npos) << log;
  EXPECT_FALSE(fs::exists(dir / "out" / "_SUCCESS"));
  fs::remove_all(dir);
}

}  // namespace
}  // namespace strata
