// bench_merge [--input DIR | --records N | --100m] [--in-memory] [--jobs J] [--memory BYTES]
//             [--work DIR] [--docs DIR]
// The merge as users run it (`strata merge -i DIR`, merge::merge_folder): extraction JSONL
// files in, documents.jsonl out, parsing included. --input DIR: a folder of extraction output
// (`strata extract` of `strata sample`). Otherwise N synthetic records (default 10M; --100m for
// 100M), shaped like a crawl: 2 captures per captured URL (10% with changed content), ~2.5
// references per capture, 30% of references to 1000 popular images, 2% to 5 site logos
// (hundreds of thousands of pages each at 100M: the per-key cap), 10% of digests under two
// URLs, revisits, references to images never captured; written as JSONL parts under --work
// first (not timed). Reports records and documents beside wall time, CPU time (records/s per
// core), spilled bytes and peak RSS.
// --in-memory: the synthetic records handed to run_merge decoded (no JSONL, no parsing): the
// merge's in-memory part alone, labelled as such.
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>

#include "../common/synthetic.hpp"
#include "merge/folder.hpp"
#include "merge/pipeline.hpp"

using namespace strata;
using bench::hex_digest;
using namespace strata::merge;

namespace {

struct Config {
  uint64_t records = 10'000'000;
  std::string input;  // an extraction folder; empty: synthetic records
  bool in_memory = false;
  unsigned jobs = 1;
  uint64_t memory = uint64_t{1} << 30;
  // One per process: runs side by side must not share their spilled runs and part files.
  std::string work = "/tmp/strata-bench-merge-" + std::to_string(getpid());
  std::string docs;  // where documents.jsonl goes (to compare builds); default: under --work
};

// splitmix64: a cheap deterministic stream per record (mt19937 seeding would dominate).
struct Rng {
  uint64_t state;
  uint64_t operator()() {
    uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
};

// Record i of the synthetic crawl (deterministic, so any worker can make any slice).
Record make_record(uint64_t i, uint64_t images) {
  Rng rng{i};
  uint64_t kind = i % 8;  // 2/8 captures, 5/8 references, 1/8 revisits
  uint64_t pick = rng() % 100;
  uint64_t img = kind < 2    ? i / 4
                 : pick < 2  ? rng() % 5 * 2  // a site logo
                 : pick < 32 ? rng() % 1000
                             : rng() % images;
  img %= images;
  std::string host = "site" + std::to_string(img % 5000) + ".pt";
  std::string url = "http://" + host + "/images/photo" + std::to_string(img) + ".jpg";
  std::string surt =
      "(pt," + host.substr(0, host.size() - 3) + ",)/images/photo" + std::to_string(img) + ".jpg";
  std::string ts = std::to_string(2005 + rng() % 15) + "0" + std::to_string(1 + rng() % 9) +
                   "1512" + std::to_string(10 + rng() % 50) + "00";
  if (kind < 2) {
    ImageCapture c;
    c.imgSurt = surt, c.imgUrl = url, c.timestamp = ts,
    c.collection = "AWP" + std::to_string(rng() % 3);
    c.file = "crawl-" + std::to_string(i / 10000) + ".warc.gz", c.offset = i * 1000, c.length = 900;
    c.recordType = "response", c.status = 200, c.mimeReported = "image/jpeg",
    c.mimeDetected = "image/jpeg";
    c.width = 640, c.height = 480;
    // 10% of URLs share bytes with another; 10% changed content at their second capture.
    c.digest = hex_digest(img % (images * 9 / 10) + (kind == 1 && rng() % 10 == 0 ? images : 0));
    c.size = 20000 + img % 1000, c.warcDigest = "sha1:" + c.digest.substr(0, 32);
    return c;
  }
  if (kind == 7) {
    ImageRevisit v;
    v.imgSurt = surt, v.imgUrl = url, v.timestamp = ts, v.collection = "AWP1";
    v.file = "crawl.warc.gz", v.offset = i;
    v.warcDigest = "sha1:" + hex_digest(img % (images * 9 / 10)).substr(0, 32);
    return v;
  }
  PageReference r;
  r.imgSurt = surt, r.imgUrl = url, r.imgUrlTokens = "http " + host + " images photo jpg";
  r.imgAlt = rng() % 2 ? "photo of item " + std::to_string(img) : "";
  r.imgTitle = rng() % 5 ? "" : "title " + std::to_string(rng() % 4);
  r.imgCaption = "caption text near the image number " + std::to_string(img % 777);
  r.tag = "img";
  uint64_t page = rng() % (images * 2);
  r.pageUrl = "http://" + host + "/page" + std::to_string(page) + ".html";
  r.pageTimestamp = ts, r.pageTitle = "Page " + std::to_string(page);
  r.pageUrlTokens = host + " page", r.pageHost = host, r.imagesInPage = 12;
  r.collection = "AWP" + std::to_string(rng() % 3), r.file = "crawl.warc.gz", r.offset = i,
  r.length = 5000;
  return r;
}

// CPU seconds (user + system) of the whole process: on a shared machine wall time measures
// the neighbours; per-core throughput is records / CPU seconds.
double cpu_seconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  auto sec = [](const timeval& t) {
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6;
  };
  return sec(usage.ru_utime) + sec(usage.ru_stime);
}

long peak_rss_kb() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss;
}

double thread_cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) / 1e9;
}

// Each source makes its records in batches, timed on its own thread's CPU clock and added
// to `gen_cpu`, before handing them to the merge: the merge's CPU is the process's minus
// exactly that (record destruction included, when a batch is overwritten).
std::vector<Source> synthetic_sources(const Config& cfg, std::atomic<double>& gen_cpu) {
  uint64_t images = std::max<uint64_t>(1, cfg.records / 4);
  std::vector<Source> sources;
  unsigned slices = cfg.jobs * 4;
  for (unsigned s = 0; s < slices; ++s)
    sources.push_back([=, &gen_cpu](const RecordEmit& emit, Counters&) {
      constexpr size_t kBatch = 512;
      std::vector<Record> batch(kBatch);
      for (uint64_t i = s; i < cfg.records;) {
        double t0 = thread_cpu_seconds();
        size_t n = 0;
        for (; n < kBatch && i < cfg.records; ++n, i += slices) batch[n] = make_record(i, images);
        gen_cpu += thread_cpu_seconds() - t0;
        for (size_t k = 0; k < n; ++k) emit(batch[k]);
      }
      double t0 = thread_cpu_seconds();
      batch.clear();
      gen_cpu += thread_cpu_seconds() - t0;
    });
  return sources;
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// The figures of one run: `generation_cpu` (synthetic records made on the merge's threads) is
// not the merge's.
void report(const std::string& label, const Config& cfg, double wall, double cpu,
            double generation_cpu, const MergeTimes& times, const Counters& c) {
  const int64_t records = c.get("records_image") + c.get("records_revisit") + c.get("records_ref");
  const auto per_s = [records](double seconds) {
    return static_cast<double>(records) / std::max(1e-9, seconds);
  };
  std::printf("%s: %lld records -> %lld documents, %u jobs, memory %llu MB\n", label.c_str(),
              static_cast<long long>(records), static_cast<long long>(c.get("documents")), cfg.jobs,
              static_cast<unsigned long long>(cfg.memory >> 20));
  std::printf("  wall %.2f s -> %.0f records/s; CPU %.2f s", wall, per_s(wall), cpu);
  if (generation_cpu > 0) std::printf(" (record generation %.2f s excluded)", generation_cpu);
  std::printf(" -> %.0f records/s per core\n", per_s(cpu - generation_cpu));
  // The wall time on cfg.jobs idle cores: on a loaded machine the measured one is the load's.
  const double critical = cpu - generation_cpu - times.overlapped_cpu_s;
  std::printf(
      "  critical path %.2f s of CPU (CPU minus what ran beside the busiest worker) -> "
      "%.0f records/s on %u idle cores\n",
      critical, per_s(critical), cfg.jobs);
  std::printf(
      "  lines not records %lld, spilled runs %lld (%.1f MB compressed), references dropped by "
      "the per-key cap %lld, peak RSS %.1f MB\n",
      static_cast<long long>(c.get("lines_malformed") + c.get("lines_not_records")),
      static_cast<long long>(c.get("spilled_runs")),
      static_cast<double>(c.get("spilled_bytes")) / 1048576.0,
      static_cast<long long>(c.get("references_dropped")),
      static_cast<double>(peak_rss_kb()) / 1024.0);
  std::printf("%s", table2_report(c).c_str());
}

// The synthetic records as extraction JSONL parts of at most 1M records each.
void write_jsonl(const Config& cfg, const std::filesystem::path& dir) {
  std::filesystem::create_directories(dir);
  uint64_t images = std::max<uint64_t>(1, cfg.records / 4);
  constexpr uint64_t kPerPart = 1'000'000;
  std::ofstream out;
  for (uint64_t i = 0; i < cfg.records; ++i) {
    if (i % kPerPart == 0) {
      char name[32];
      std::snprintf(name, sizeof name, "part-%05llu.jsonl",
                    static_cast<unsigned long long>(i / kPerPart));
      out = std::ofstream(dir / name, std::ios::binary);
    }
    out << record_to_json(make_record(i, images)).dump() << '\n';
  }
}

// `strata merge -i dir`: merge_folder, documents written to a file.
void bench_folder(const Config& cfg, const std::filesystem::path& dir, const std::string& label) {
  MergeTimes times;
  MergeOptions options;
  options.jobs = cfg.jobs;
  options.memory = cfg.memory;
  options.times = &times;
  std::filesystem::path docs =
      cfg.docs.empty() ? std::filesystem::path(cfg.work) / "docs" : std::filesystem::path(cfg.docs);
  auto t0 = std::chrono::steady_clock::now();
  double c0 = cpu_seconds();
  FolderMergeResult result = merge_folder(dir, docs, options, nullptr);
  report(label, cfg, seconds_since(t0), cpu_seconds() - c0, 0, times, result.counters);
  if (!result.error.empty()) std::fprintf(stderr, "merge failed: %s\n", result.error.c_str());
}

// The merge's in-memory part: decoded records handed over by the sources.
void bench_in_memory(const Config& cfg) {
  MergeTimes times;
  MergeOptions options;
  options.jobs = cfg.jobs;
  options.memory = cfg.memory;
  options.work_dir = std::filesystem::path(cfg.work) / "merge";
  options.times = &times;
  std::ofstream documents(cfg.docs.empty() ? "/dev/null" : cfg.docs + "/documents.jsonl");
  auto t0 = std::chrono::steady_clock::now();
  double c0 = cpu_seconds();
  std::atomic<double> gen_cpu{0};
  Counters c = run_merge(synthetic_sources(cfg, gen_cpu), options, documents);
  report("in-memory part only (decoded records handed over: no JSONL, no parsing)", cfg,
         seconds_since(t0), cpu_seconds() - c0, gen_cpu, times, c);
}

}  // namespace

int main(int argc, char** argv) {
  Config cfg;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto next = [&] { return i + 1 < argc ? std::string(argv[++i]) : std::string(); };
    if (a == "--records")
      cfg.records = std::stoull(next());
    else if (a == "--100m")
      cfg.records = 100'000'000;
    else if (a == "--input")
      cfg.input = next();
    else if (a == "--in-memory")
      cfg.in_memory = true;
    else if (a == "--jobs")
      cfg.jobs = static_cast<unsigned>(std::stoul(next()));
    else if (a == "--memory")
      cfg.memory = std::stoull(next());
    else if (a == "--work")
      cfg.work = next();
    else if (a == "--docs")
      cfg.docs = next();
    else {
      std::fprintf(stderr,
                   "usage: bench_merge [--input DIR | --records N | --100m] [--in-memory] "
                   "[--jobs J] [--memory B] [--work DIR] [--docs DIR]\n");
      return 2;
    }
  }
  std::error_code ignored;
  if (!cfg.input.empty()) {
    bench_folder(cfg, cfg.input, "strata merge of " + cfg.input + " (JSONL, parsing included)");
  } else if (cfg.in_memory) {
    bench_in_memory(cfg);
  } else {
    const std::filesystem::path parts = std::filesystem::path(cfg.work) / "extract";
    write_jsonl(cfg, parts);
    bench_folder(cfg, parts, "strata merge of synthetic JSONL (parsing included)");
  }
  // What this run made under --work, then the folder itself when that leaves it empty.
  const std::filesystem::path work(cfg.work);
  for (const char* made : {"extract", "docs", "merge"})
    if (cfg.docs.empty() || made != std::string("docs"))
      std::filesystem::remove_all(work / made, ignored);
  std::filesystem::remove(work, ignored);
  return 0;
}
