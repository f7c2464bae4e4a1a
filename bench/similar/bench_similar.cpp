// bench_similar [--images N] [--queries Q] [--distance d] [--baseline B]
// "More like this" search (similar/hamming_index.hpp, as `strata serve` holds it) over N
// synthetic pHashes (default 1,000,000): 90 % random with 32 bits set, 10 % near-copies of
// an earlier one (1 to 8 bits flipped). Q queries (default 10,000) are the pHashes of images
// picked at random from the set, as "more like this" on a result is. Reports the index's
// build time and peak RSS, per query the wall time and the process's CPU time (p50, p99, max:
// on a shared machine the wall's tail is the scheduler's, the CPU time the search's), and the
// hits returned; the baseline is a linear POPCNT scan of all N hashes for the first B queries
// (default 200), whose hits must be the same.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "../common/measure.hpp"
#include "latency.hpp"
#include "phashes.hpp"
#include "similar/groups.hpp"
#include "similar/hamming_index.hpp"

using namespace strata;

namespace {

using Clock = std::chrono::steady_clock;
using bench::Latency;
using bench::run_queries;

std::vector<uint64_t> synthetic_hashes(size_t n) {
  std::mt19937_64 rng(42);
  std::vector<uint64_t> hashes;
  hashes.reserve(n);
  for (size_t i = 0; i < n; ++i)
    hashes.push_back(rng() % 10 == 0 && i > 0
                         ? bench::near_copy(hashes[rng() % i], 1 + int(rng() % 8), rng)
                         : bench::balanced_hash(rng));
  return hashes;
}

struct Pass {
  double build_seconds = 0, build_cpu = 0;
  Latency indexed, scan;
};

}  // namespace

int main(int argc, char** argv) {
  size_t n = 1'000'000, queries = 10'000, baseline = 200;
  int distance = similar::kNearDuplicateRadius;
  for (int i = 1; i + 1 < argc; i += 2) {
    std::string flag = argv[i];
    if (flag == "--images")
      n = std::strtoull(argv[i + 1], nullptr, 10);
    else if (flag == "--queries")
      queries = std::strtoull(argv[i + 1], nullptr, 10);
    else if (flag == "--distance")
      distance = std::atoi(argv[i + 1]);
    else if (flag == "--baseline")
      baseline = std::strtoull(argv[i + 1], nullptr, 10);
    else {
      std::fprintf(stderr,
                   "usage: bench_similar [--images N] [--queries Q] [--distance d] "
                   "[--baseline B]\n");
      return 2;
    }
  }
  if (n == 0 || queries == 0) return 2;
  const auto hashes = synthetic_hashes(n);
  std::vector<uint64_t> picked;
  std::mt19937_64 rng(7);
  for (size_t q = 0; q < queries; ++q) picked.push_back(hashes[rng() % n]);
  const std::vector<uint64_t> scanned(picked.begin(),
                                      picked.begin() + std::min(baseline, picked.size()));
  auto figures = bench::measure_in_child<Pass>(1, [&] {
    Pass pass;
    const double cpu0 = bench::cpu_seconds();
    const auto t0 = Clock::now();
    similar::HammingIndex index(similar::kNearDuplicateRadius, hashes);
    pass.build_seconds = std::chrono::duration<double>(Clock::now() - t0).count();
    pass.build_cpu = bench::cpu_seconds() - cpu0;
    pass.indexed =
        run_queries(picked, [&](uint64_t q) { return index.all_within(q, distance).size(); });
    const Latency check =
        run_queries(scanned, [&](uint64_t q) { return index.all_within(q, distance).size(); });
    pass.scan = run_queries(scanned, [&](uint64_t q) {
      size_t found = 0;
      for (uint64_t h : hashes) found += std::popcount(h ^ q) <= distance;
      return found;
    });
    if (check.hits != pass.scan.hits) {
      std::fprintf(stderr, "index and scan disagree: %zu vs %zu hits\n", check.hits,
                   pass.scan.hits);
      std::exit(1);
    }
    return pass;
  });
  const Pass& p = figures.pass;
  std::printf("images %zu distance %d: index built in %.2f s (cpu %.2f s), peak RSS %.0f MiB\n", n,
              distance, p.build_seconds, p.build_cpu, figures.max_rss_kib / 1024.0);
  auto print = [](const char* name, size_t count, const Latency& l) {
    std::printf(
        "%s: %zu queries, wall p50 %.3f ms p99 %.3f ms max %.3f ms; cpu p50 %.3f ms p99 %.3f ms "
        "max %.3f ms; hits %zu, queries with a near-duplicate %zu\n",
        name, count, l.wall.p50, l.wall.p99, l.wall.max, l.cpu.p50, l.cpu.p99, l.cpu.max, l.hits,
        l.queries_with_hits);
  };
  print("index", picked.size(), p.indexed);
  print("scan (baseline, same hits)", scanned.size(), p.scan);
  std::printf("cpu p50 ratio scan/index %.0fx\n",
              p.scan.cpu.p50 / std::max(1e-6, p.indexed.cpu.p50));
  return 0;
}
