// bench_regroup [--images N] [--batch-percent P] [--runs R] [--index DIR]
// The near-duplicate regroup a write runs (index/near_duplicate_groups.hpp) when a batch of
// P % (default 1) new images is added to an index of N images with a pHash (default
// 1,000,000): 90 % distinct random pHashes, 10 % near-copies; a tenth of the batch are larger
// near-copies of indexed images (they take their groups over). Each run adds the batch in a
// transaction (not timed), regroups, and cancels; the regroup of only what changed and the
// whole-index regroup alternate, each in a child process (its peak RSS: the batch's writes
// plus the regroup). Prints medians of R runs (default 3): CPU and wall seconds of the
// regroup, images hashed, regrouped and rewritten, groups. --index DIR keeps the base index
// (built there when missing).
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "../common/measure.hpp"
#include "../common/synthetic.hpp"
#include "../similar/phashes.hpp"
#include "index/writer.hpp"

using namespace strata;
namespace fs = std::filesystem;

namespace {

struct Config {
  uint64_t images = 1'000'000;
  double batch_percent = 1.0;
  int runs = 3;
  fs::path index;
};

struct Pass {
  double cpu = 0, wall = 0;
  uint64_t hashed = 0, regrouped = 0, changed = 0, groups = 0;
};

struct Synthetic {
  uint64_t phash = 0;
  int side = 0;
};

// Image n of the base (n < images) or of the batch: its pHash and size, reproducibly.
Synthetic synthetic(uint64_t n, uint64_t images) {
  std::mt19937_64 rng(n * 7919 + 1);
  if (n >= images && n % 10 == 0) {  // the batch's larger near-copies of indexed images
    const uint64_t original = rng() % images;
    return {bench::near_copy(synthetic(original, images).phash, 1 + int(rng() % 4), rng), 900};
  }
  if (n % 10 == 9 && n > 0) {  // a smaller near-copy of an earlier image
    const uint64_t original = rng() % n;
    return {bench::near_copy(synthetic(original, images).phash, 1 + int(rng() % 8), rng),
            100 + int(rng() % 200)};
  }
  return {bench::balanced_hash(rng), 100 + int(rng() % 500)};
}

merge::ImageDocument document(uint64_t n, const Synthetic& s) {
  merge::ImageDocument d;
  d.id = d.imgDigest = bench::hex_digest(n);
  d.imgUrl = "http://site" + std::to_string(n % 5000) + ".pt/img/" + std::to_string(n) + ".jpg";
  d.imgMimeType = "image/jpeg";
  d.imgWidth = d.imgHeight = s.side;
  d.imgCrawlTimestamp = d.imgCrawlTimestampLatest =
      "2010" + std::to_string(1001 + n % 12 * 100) + "120000";
  d.collection = {"base"};
  return d;
}

// Adds images [first, last) to `writer`, their pHashes joined as analysis would.
void add_images(index::IndexWriter& writer, uint64_t first, uint64_t last, uint64_t images) {
  for (uint64_t n = first; n < last; ++n) {
    const Synthetic s = synthetic(n, images);
    writer.set_moderate([&](const merge::ImageDocument&, index::Moderation& m) {
      m.safe = 0;
      m.phash = s.phash;
    });
    writer.add(document(n, s));
  }
}

void build_base(const Config& c) {
  constexpr uint64_t kCommit = 50'000;
  index::IndexWriter writer(c.index);
  for (uint64_t first = writer.size(); first < c.images; first += kCommit) {
    writer.begin();
    add_images(writer, first, std::min(c.images, first + kCommit), c.images);
    writer.commit();
    std::fprintf(stderr, "base: %llu documents\n", static_cast<unsigned long long>(writer.size()));
  }
  writer.begin();
  writer.regroup_near_duplicates(1, true);  // the groups and the grouping table
  writer.commit();
}

Pass regroup_after_batch(const Config& c, bool whole) {
  index::IndexWriter writer(c.index);
  writer.begin();
  const auto batch = uint64_t(double(c.images) * c.batch_percent / 100);
  add_images(writer, c.images, c.images + batch, c.images);
  const double cpu0 = bench::cpu_seconds();
  const auto t0 = std::chrono::steady_clock::now();
  const index::RegroupReport r = writer.regroup_near_duplicates(1, whole);
  Pass p;
  p.wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  p.cpu = bench::cpu_seconds() - cpu0;
  p.hashed = r.hashed, p.regrouped = r.regrouped, p.changed = r.changed, p.groups = r.groups;
  writer.cancel();
  return p;
}

bench::Figures<Pass> median_by_cpu(std::vector<bench::Figures<Pass>> runs) {
  std::sort(runs.begin(), runs.end(),
            [](const auto& x, const auto& y) { return x.pass.cpu < y.pass.cpu; });
  return runs[runs.size() / 2];
}

void print(const char* what, const bench::Figures<Pass>& f) {
  std::printf(
      "%-22s cpu %7.3f s  wall %7.3f s  hashed %llu  regrouped %llu  rewritten %llu  "
      "groups %llu  peak RSS %ld MiB\n",
      what, f.pass.cpu, f.pass.wall, static_cast<unsigned long long>(f.pass.hashed),
      static_cast<unsigned long long>(f.pass.regrouped),
      static_cast<unsigned long long>(f.pass.changed),
      static_cast<unsigned long long>(f.pass.groups), f.max_rss_kib / 1024);
}

}  // namespace

int main(int argc, char** argv) {
  Config c;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "--images")
      c.images = std::strtoull(argv[i + 1], nullptr, 10);
    else if (flag == "--batch-percent")
      c.batch_percent = std::atof(argv[i + 1]);
    else if (flag == "--runs")
      c.runs = std::atoi(argv[i + 1]);
    else if (flag == "--index")
      c.index = argv[i + 1];
    else {
      std::fprintf(stderr, "unknown flag %s\n", argv[i]);
      return 2;
    }
  }
  const bool keep = !c.index.empty();
  if (!keep)
    c.index = fs::temp_directory_path() / ("strata-bench-regroup-" + std::to_string(getpid()));
  if (!fs::exists(c.index)) build_base(c);
  std::printf("index of %llu images, batch %.1f %%, %d runs each\n",
              static_cast<unsigned long long>(c.images), c.batch_percent, c.runs);
  std::vector<bench::Figures<Pass>> changed, whole;
  for (int run = 0; run < c.runs; ++run) {  // alternated, so both see the same load
    changed.push_back(
        bench::measure_in_child<Pass>(1, [&] { return regroup_after_batch(c, false); }));
    whole.push_back(bench::measure_in_child<Pass>(1, [&] { return regroup_after_batch(c, true); }));
  }
  const auto& [a, b] = std::pair{median_by_cpu(changed), median_by_cpu(whole)};
  print("only what changed", a);
  print("whole index", b);
  std::printf("ratio whole / changed: cpu %.1fx, wall %.1fx\n", b.pass.cpu / a.pass.cpu,
              b.pass.wall / a.pass.wall);
  if (!keep) fs::remove_all(c.index);
}
