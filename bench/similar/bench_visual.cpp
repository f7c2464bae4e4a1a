// bench_visual [--images N] [--queries Q] [--baseline B] [--common c] [--scan-threads T]
// "Visually similar" search (similar/embedding_index.hpp, as `strata serve` holds it) over N
// synthetic 128-byte embedding codes (default 1,000,000): every code is a shared direction
// (weight c, default 0.5: real codes share one, docs/similarity.md) plus one of N/20 cluster
// directions plus noise, so that each image has ~20 true neighbours. Q queries (default
// 2,000) are codes of images picked at random from the set, each asking what the API asks
// (the nearest 2 x 100 + 1). Reports the build time and peak RSS, per query the wall time and
// the process's CPU time (p50, p99, max), and the hits; the baseline is the exact int8 scan
// of all N codes for the first B queries (default 100), against which the recall@10 of the
// shortlist search is counted. --scan-threads T: the threads each lookup scans with (default 0:
// as served, one per 2M entries up to the cores).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "../common/measure.hpp"
#include "latency.hpp"
#include "similar/embedding_index.hpp"

using namespace strata;

namespace {

using Clock = std::chrono::steady_clock;
using similar::EmbeddingCode;

constexpr size_t kAsked = 201;  // server/similar_visual.cpp: 2 x kMaxVisualNeighbours + itself

std::vector<EmbeddingCode> synthetic_codes(size_t n, double common) {
  std::mt19937_64 rng(42);
  std::normal_distribution<float> gauss(0.0f, 1.0f);
  const auto direction = [&] {
    std::vector<float> d(similar::kEmbeddingDims);
    for (float& v : d) v = gauss(rng);
    return d;
  };
  const std::vector<float> shared = direction();
  std::vector<std::vector<float>> clusters(std::max<size_t>(1, n / 20));
  for (auto& c : clusters) c = direction();
  std::vector<EmbeddingCode> codes(n);
  for (EmbeddingCode& code : codes) {
    const std::vector<float>& cluster = clusters[rng() % clusters.size()];
    uint64_t bits = 0;
    for (size_t i = 0; i < code.size(); ++i) {
      if (i % 8 == 0) bits = rng();
      // Uniform noise of standard deviation 0.6 from one byte (cheaper than a Gaussian at 10M).
      const float noise = (float(bits & 0xff) - 127.5f) * (0.6f / 73.9f);
      bits >>= 8;
      const float v = float(common) * shared[i] + cluster[i] + noise;
      code[i] = int8_t(std::clamp(std::lround(v * 30.0f), -127l, 127l));
    }
  }
  return codes;
}

struct Pass {
  double build_seconds = 0, build_cpu = 0;
  bench::Latency shortlist, exact;
  size_t recalled = 0, compared = 0;  // of the exact top 10, found by the shortlist search
};

}  // namespace

int main(int argc, char** argv) {
  size_t n = 1'000'000, queries = 2'000, baseline = 100;
  double common = 0.5;
  unsigned scan_threads = 0;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "--images")
      n = std::strtoull(argv[i + 1], nullptr, 10);
    else if (flag == "--queries")
      queries = std::strtoull(argv[i + 1], nullptr, 10);
    else if (flag == "--baseline")
      baseline = std::strtoull(argv[i + 1], nullptr, 10);
    else if (flag == "--common")
      common = std::strtod(argv[i + 1], nullptr);
    else if (flag == "--scan-threads")
      scan_threads = unsigned(std::strtoul(argv[i + 1], nullptr, 10));
    else {
      std::fprintf(stderr,
                   "usage: bench_visual [--images N] [--queries Q] [--baseline B] [--common c] "
                   "[--scan-threads T]\n");
      return 2;
    }
  }
  if (n == 0 || queries == 0) return 2;
  auto codes = synthetic_codes(n, common);
  std::vector<EmbeddingCode> picked;
  std::mt19937_64 rng(7);
  for (size_t q = 0; q < queries; ++q) picked.push_back(codes[rng() % n]);
  const std::vector<EmbeddingCode> scanned(picked.begin(),
                                           picked.begin() + std::min(baseline, picked.size()));
  auto figures = bench::measure_in_child<Pass>(1, [&] {
    Pass pass;
    const double cpu0 = bench::cpu_seconds();
    const auto t0 = Clock::now();
    const similar::EmbeddingIndex index(std::move(codes));
    pass.build_seconds = std::chrono::duration<double>(Clock::now() - t0).count();
    pass.build_cpu = bench::cpu_seconds() - cpu0;
    pass.shortlist = bench::run_queries(picked, [&](const EmbeddingCode& q) {
      return index.nearest(q, kAsked, scan_threads).size();
    });
    pass.exact = bench::run_queries(
        scanned, [&](const EmbeddingCode& q) { return index.nearest_exact(q, kAsked).size(); });
    for (const EmbeddingCode& q : scanned) {
      std::set<uint32_t> exact;
      for (const auto& m : index.nearest_exact(q, 10)) exact.insert(m.entry);
      for (const auto& m : index.nearest(q, 10)) pass.recalled += exact.count(m.entry);
      pass.compared += exact.size();
    }
    return pass;
  });
  const Pass& p = figures.pass;
  std::printf("images %zu (common %.2f): index built in %.2f s (cpu %.2f s), peak RSS %.0f MiB\n",
              n, common, p.build_seconds, p.build_cpu, figures.max_rss_kib / 1024.0);
  const auto print = [](const char* name, size_t count, const bench::Latency& l) {
    std::printf(
        "%s: %zu queries, wall p50 %.3f ms p99 %.3f ms max %.3f ms; cpu p50 %.3f ms p99 %.3f ms "
        "max %.3f ms; hits %zu\n",
        name, count, l.wall.p50, l.wall.p99, l.wall.max, l.cpu.p50, l.cpu.p99, l.cpu.max, l.hits);
  };
  print("shortlist search", picked.size(), p.shortlist);
  print("exact int8 scan (baseline)", scanned.size(), p.exact);
  std::printf("recall@10 of the shortlist search against the exact scan: %.3f (%zu of %zu)\n",
              double(p.recalled) / double(std::max<size_t>(1, p.compared)), p.recalled, p.compared);
  std::printf("cpu p50 ratio exact/shortlist %.1fx\n",
              p.exact.cpu.p50 / std::max(1e-6, p.shortlist.cpu.p50));
  return 0;
}
