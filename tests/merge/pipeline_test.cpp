#include "merge/pipeline.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>

#include "fixtures.hpp"
#include "merge/streaming.hpp"
#include "testing/shared_data.hpp"

namespace strata::merge {
namespace {

using testing::capture;
using testing::ref;
using testing::revisit;

std::string digest(int i) {
  char buf[65];
  std::snprintf(buf, sizeof buf, "%064x", i);
  return buf;
}

// A mixed input: shared digests under several SURTs, SURTs with two digests, revisits,
// orphans on both sides, several collections.
std::vector<Record> sample_records() {
  std::vector<Record> out;
  for (int s = 0; s < 40; ++s) {
    std::string surt = "(pt,site" + std::to_string(s % 7) + ",)/img" + std::to_string(s) + ".jpg";
    std::string url =
        "http://site" + std::to_string(s % 7) + ".pt/img" + std::to_string(s) + ".jpg";
    std::string coll = s % 3 ? "C1" : "C2";
    auto c1 =
        capture(surt, url, "2010010" + std::to_string(s % 9) + "000000", digest(s % 13), coll);
    out.push_back(c1);
    if (s % 4 == 0) out.push_back(capture(surt, url, "20150101000000", digest(100 + s), coll));
    if (s % 5 == 0) out.push_back(revisit(surt, "20120101000000", c1.warcDigest));
    if (s % 11 == 0) out.push_back(revisit(surt, "20120101000000", "sha1:none"));
    for (int p = 0; p < s % 6; ++p) {
      auto r =
          ref(surt, url, "http://page" + std::to_string(p) + ".pt/",
              "20" + std::to_string(10 + p) + "0601000000", "alt " + std::to_string(p % 3), coll);
      r.imgTitle = p % 2 ? "title" : "";
      out.push_back(r);
    }
  }
  out.push_back(
      ref("(pt,nowhere,)/x.png", "http://nowhere.pt/x.png", "http://p/", "20100101000000"));
  return out;
}

std::vector<Source> as_sources(const std::vector<Record>& records, size_t n) {
  std::vector<Source> sources;
  for (size_t k = 0; k < n; ++k)
    sources.push_back([&records, k, n](const RecordEmit& emit, Counters&) {
      for (size_t i = k; i < records.size(); i += n) emit(records[i]);
    });
  return sources;
}

std::string run(const std::vector<Record>& records, size_t sources, unsigned jobs, uint64_t memory,
                Mode mode = Mode::compact, Counters* counters = nullptr) {
  MergeOptions options;
  options.mode = mode;
  options.jobs = jobs;
  options.memory = memory;
  options.work_dir = strata::testing::scratch_dir() / "work";
  std::ostringstream out;
  Counters c = run_merge(as_sources(records, sources), options, out);
  if (counters) *counters = c;
  return out.str();
}

TEST(Pipeline, OutputIndependentOfThreadsSourcesAndSpilling) {
  auto records = sample_records();
  Counters counters;
  std::string base = run(records, 1, 1, uint64_t{1} << 30, Mode::compact, &counters);
  EXPECT_EQ(run(records, 4, 4, uint64_t{1} << 30), base);
  EXPECT_EQ(run(records, 3, 2, 1), base);  // tiny budget: every record spills
  EXPECT_GT(counters.get("documents"), 5);
  EXPECT_EQ(counters.get("references_without_images"), 1);
  EXPECT_EQ(counters.get("revisits_unresolved"), 4);
  EXPECT_EQ(counters.get("revisits_resolved"), 8);
  EXPECT_NE(table2_report(counters).find("Matching digest"), std::string::npos);
}

// Job 1 builds the documents of digests found under one SURT; with a tiny budget (no room to
// note the digests) job 2 builds them all. Documents and counters agree in every mode, with
// one or several digest partitions, in memory or spilled.
TEST(Pipeline, DocumentsBuiltInJob1EqualThoseOfJob2) {
  auto records = sample_records();
  for (Mode mode : {Mode::compact, Mode::legacy, Mode::full}) {
    Counters job2;
    std::string expected = run(records, 3, 2, 1, mode, &job2);
    EXPECT_EQ(job2.get("documents_built_in_job1"), 0);
    for (unsigned jobs : {1u, 2u})
      for (uint64_t memory : {uint64_t{1} << 30, uint64_t{1} << 16}) {
        Counters job1;
        EXPECT_EQ(run(records, 3, jobs, memory, mode, &job1), expected) << to_string(mode);
        EXPECT_GT(job1.get("documents_built_in_job1"), 0);
        EXPECT_LT(job1.get("documents_built_in_job1"), job1.get("documents"));
        for (const auto& [name, value] : job2.values())
          if (name.rfind("spilled_", 0) != 0) {
            EXPECT_EQ(job1.get(name), value) << name;
          }
      }
  }
}

// Records longer than an arena chunk (64 KB; phase 1 writes a record into the free part of a
// chunk and retries with more room when it does not fit) keep every byte, in memory and spilled.
TEST(Pipeline, RecordsLargerThanAChunkKeepEveryByte) {
  auto records = sample_records();
  std::string long_alt(300'000, 'a'), long_caption(70'000, 'c');
  auto big = ref("(pt,site1,)/img1.jpg", "http://site1.pt/img1.jpg", "http://big.pt/",
                 "20000101000000", long_alt);
  big.imgCaption = long_caption;
  records.emplace_back(std::move(big));
  std::string in_memory = run(records, 1, 1, uint64_t{1} << 30);
  EXPECT_NE(in_memory.find("\"" + long_alt + "\""), std::string::npos);
  EXPECT_NE(in_memory.find("\"" + long_caption + "\""), std::string::npos);
  EXPECT_EQ(run(records, 3, 2, uint64_t{1} << 30), in_memory);
  EXPECT_EQ(run(records, 3, 2, 1), in_memory);
  EXPECT_EQ(run(records, 2, 1, uint64_t{1} << 18), in_memory);
}

TEST(Pipeline, SpillsWhenOverBudget) {
  Counters counters;
  run(sample_records(), 2, 2, 1, Mode::compact, &counters);
  EXPECT_GT(counters.get("spilled_runs"), 0);
}

TEST(Pipeline, OneDocumentPerDigestSortedById) {
  std::istringstream in(run(sample_records(), 1, 2, uint64_t{1} << 30));
  std::string line, previous;
  while (std::getline(in, line)) {
    ImageDocument doc;
    ASSERT_TRUE(from_json(Json::parse(line), doc));
    EXPECT_GT(doc.id, previous);
    EXPECT_EQ(doc.id, doc.imgDigest);
    previous = doc.id;
  }
}

#ifdef STRATA_MERGE_STREAMING_TOOL
std::string shell(const std::string& command) {
  std::string out;
  FILE* pipe = popen(command.c_str(), "r");
  char buf[65536];
  for (size_t n; (n = fread(buf, 1, sizeof buf, pipe)) > 0;) out.append(buf, n);
  EXPECT_EQ(pclose(pipe), 0);
  return out;
}

// `cat input | map | sort | reduce | map2 | sort | reduce2` equals the in-process run.
TEST(Pipeline, HadoopStreamingShapeGivesSameDocuments) {
  auto records = sample_records();
  std::string expected_compact = run(records, 2, 2, uint64_t{1} << 30, Mode::compact);
  std::string expected_full = run(records, 2, 2, uint64_t{1} << 30, Mode::full);
  auto dir = strata::testing::scratch_dir();  // after run(), which reuses this test's folder
  {
    std::ofstream in(dir / "part-00000.jsonl");
    for (const auto& r : records) in << record_to_json(r).dump() << '\n';
  }
  for (const char* mode : {"compact", "full"}) {
    std::string tool = STRATA_MERGE_STREAMING_TOOL;
    std::string stage = " 2>/dev/null | ";
    std::string cmd = "cat '" + (dir / "part-00000.jsonl").string() + "' | " + tool + " map" +
                      stage + "LC_ALL=C sort | " + tool + " reduce" + stage + tool + " map2" +
                      stage + "LC_ALL=C sort | " + tool + " reduce2 " + mode +
                      " 2>/dev/null | cut -f2-";
    std::string got = shell(cmd);
    const std::string& expected = std::string(mode) == "full" ? expected_full : expected_compact;
    EXPECT_FALSE(got.empty());
    EXPECT_TRUE(got == expected) << mode << ": streaming output differs from run_merge";
  }
}
#endif

}  // namespace
}  // namespace strata::merge
