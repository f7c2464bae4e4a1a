// bench_groups [--images N] [--runs R] [--radius r] [--threads T]
// Near-duplicate grouping (src/similar) of N synthetic images (default 1,000,000): 90 % with
// distinct random pHashes of 32 set bits, 10 % near-copies of one of them (1 to r bits
// flipped, smaller), 1 % flat (hash 0) as the gate's trap; sizes and first captures random.
// Reports the median of R runs (default 3) of grouping alone: wall and CPU seconds, peak
// RSS of the process (input included), groups and images grouped. T: search threads (default:
// all cores).
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "../common/measure.hpp"
#include "../common/synthetic.hpp"
#include "phashes.hpp"
#include "similar/groups.hpp"

using namespace strata;

namespace {

struct Pass {
  double cpu_seconds = 0;
  size_t groups = 0, grouped = 0, gated = 0;
};

std::vector<similar::Image> synthetic_images(size_t n, int radius) {
  std::mt19937_64 rng(42);
  std::vector<similar::Image> images;
  images.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    similar::Image image{bench::hex_digest(i), 0, int(100 + rng() % 1900), int(100 + rng() % 1400),
                         int64_t(1'000'000'000 + rng() % 600'000'000)};
    size_t kind = rng() % 100;
    if (kind < 10 && i > 0) {  // a smaller near-copy of an earlier image
      const auto& original = images[rng() % i];
      image.phash = bench::near_copy(original.phash, 1 + int(rng() % radius), rng);
      image.width = original.width / 2;
      image.height = original.height / 2;
    } else {
      image.phash = kind == 10 ? 0 : bench::balanced_hash(rng);
    }
    images.push_back(std::move(image));
  }
  return images;
}

}  // namespace

int main(int argc, char** argv) {
  size_t n = 1'000'000;
  int runs = 3, radius = similar::kNearDuplicateRadius;
  unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  for (int i = 1; i + 1 < argc; i += 2) {
    std::string flag = argv[i];
    if (flag == "--images")
      n = std::strtoull(argv[i + 1], nullptr, 10);
    else if (flag == "--runs")
      runs = std::atoi(argv[i + 1]);
    else if (flag == "--radius")
      radius = std::atoi(argv[i + 1]);
    else if (flag == "--threads")
      threads = static_cast<unsigned>(std::atoi(argv[i + 1]));
    else {
      std::fprintf(stderr,
                   "usage: bench_groups [--images N] [--runs R] [--radius r] [--threads T]\n");
      return 2;
    }
  }
  auto images = synthetic_images(n, radius);
  auto figures = bench::measure_in_child<Pass>(runs, [&] {
    double cpu0 = bench::cpu_seconds();
    auto g = similar::group_near_duplicates(images, radius, threads);
    return Pass{bench::cpu_seconds() - cpu0, g.groups, g.grouped, g.degenerate + g.too_small};
  });
  std::printf(
      "images %zu radius %d threads %u: wall %.2f s, cpu %.2f s, peak RSS %.0f MiB, groups %zu, "
      "grouped %zu, gated %zu (median of %d)\n",
      n, radius, threads, figures.seconds, figures.pass.cpu_seconds, figures.max_rss_kib / 1024.0,
      figures.pass.groups, figures.pass.grouped, figures.pass.gated, runs);
  return 0;
}
