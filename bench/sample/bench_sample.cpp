// bench_sample [--images N] [--threads T] [--runs R] [--seed S] [--fast 0|1] [--out DIR]
// Generates a sample of N image URLs (default 100000; `fast` bench mode from 100000 as in
// `strata sample --scale N`, or as --fast says, so a smaller run can be profiled) into DIR
// (default: a temporary folder, deleted afterwards) and reports, as the median of R runs: MB of
// WARC written, wall seconds, CPU seconds, MB/s of WARC per core (bytes / CPU seconds), images/s
// per core, and the planning share.
#include <sys/resource.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "sample/sample.hpp"

namespace {

struct Config {
  int64_t images = 100000;
  int threads = 1;
  int runs = 1;
  uint64_t seed = 1;
  int fast = -1;  // -1: from the scale
  std::string out;
};

double cpu_seconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  auto s = [](const timeval& t) { return static_cast<double>(t.tv_sec) + t.tv_usec * 1e-6; };
  return s(u.ru_utime) + s(u.ru_stime);
}

struct Run {
  strata::sample::Summary summary;
  double cpu = 0;
  double mb_per_core() const { return static_cast<double>(summary.bytes) / 1e6 / cpu; }
};

Run run_once(const Config& cfg, const std::filesystem::path& dir) {
  std::filesystem::remove_all(dir);
  strata::sample::Options options;
  strata::sample::apply_scale(std::to_string(cfg.images), options);
  options.seed = cfg.seed;
  if (cfg.fast >= 0) options.fast = cfg.fast != 0;
  double c0 = cpu_seconds();
  Run r;
  r.summary = strata::sample::generate(options, dir.string(), cfg.threads);
  r.cpu = cpu_seconds() - c0;
  return r;
}

bool parse(int argc, char** argv, Config& cfg) {
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (i + 1 >= argc) return false;
    std::string v = argv[++i];
    if (a == "--images")
      cfg.images = std::stoll(v);
    else if (a == "--threads")
      cfg.threads = std::stoi(v);
    else if (a == "--runs")
      cfg.runs = std::max(1, std::stoi(v));
    else if (a == "--seed")
      cfg.seed = std::stoull(v);
    else if (a == "--fast")
      cfg.fast = std::stoi(v);
    else if (a == "--out")
      cfg.out = v;
    else
      return false;
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  Config cfg;
  if (!parse(argc, argv, cfg)) {
    std::fprintf(stderr,
                 "usage: bench_sample [--images N] [--threads T] [--runs R] [--seed S] "
                 "[--fast 0|1] [--out DIR]\n");
    return 2;
  }
  bool temporary = cfg.out.empty();
  std::filesystem::path dir = temporary
                                  ? std::filesystem::temp_directory_path() / "strata-bench-sample"
                                  : std::filesystem::path(cfg.out);
  std::vector<Run> runs;
  for (int i = 0; i < cfg.runs; ++i) runs.push_back(run_once(cfg, dir));
  std::sort(runs.begin(), runs.end(),
            [](const Run& a, const Run& b) { return a.mb_per_core() < b.mb_per_core(); });
  const Run& m = runs[runs.size() / 2];
  const auto& s = m.summary;
  std::printf("sample of %lld image URLs (%zu distinct files, %zu truth documents), %d thread(s)\n",
              static_cast<long long>(s.images), s.assets, s.documents, cfg.threads);
  std::printf("WARC: %.1f MB in %zu files, %llu records\n", static_cast<double>(s.bytes) / 1e6,
              s.files.size(), static_cast<unsigned long long>(s.records));
  std::printf("median of %d: %.2f s wall (plan %.2f s), %.2f CPU s\n", cfg.runs, s.seconds,
              s.plan_seconds, m.cpu);
  std::printf("MB/s of WARC per core: %.1f\n", m.mb_per_core());
  std::printf("images/s per core: %.0f\n", static_cast<double>(s.images) / m.cpu);
  if (temporary) std::filesystem::remove_all(dir);
  return 0;
}
