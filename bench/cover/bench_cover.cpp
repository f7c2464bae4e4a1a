// bench_cover [--images N] [--windows W] [--window S] [--threads T] [--offline 0|1] [--ilp-ms M]
// bench_cover --pages N [--threads T] [--memory BYTES]
// Offline: the minimum cover of N synthetic images (default 1,000,000; 40 % near-copies of an
// earlier look, 1 to 3 bits flipped; about 2.2 versions per URL, as the paper's data set A)
// under `phash<=6` and `versions`, each in a child process: wall and CPU seconds, peak RSS,
// kept, components, exact share; beside it, in the same run, src/similar's near-duplicate
// grouping of the same hashes (radius 6) as the baseline.
// Interactive: W windows (default 200) of S ranked results (default 1,000) drawn from those
// images by look (so that they hold copies, as a result list does): the time to build the
// Items from ImageDocuments (what the server pays per hit) and the time of the cover, p50 and
// p99 of thread CPU milliseconds, per expression, with the server's integer-program budget
// (--ilp-ms, default 10: search::kRedundancyIlpMs). --offline 0 skips the offline part.
// Pages (--pages N): the paper's relation over N synthetic page versions (see pages()), the
// shingle index, the pages' texts and the pair tests within --memory bytes (default 1 GB;
// spilled to the temporary folder).
#include <sys/resource.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <random>
#include <string>
#include <vector>

#include "../common/measure.hpp"
#include "cover/cover.hpp"
#include "cover/documents.hpp"
#include "cover/item_texts.hpp"
#include "similar/groups.hpp"

using namespace strata;

namespace {

struct Options {
  size_t images = 1'000'000, windows = 200, window = 1000, offline = 1, pages = 0, ilp_ms = 10;
  unsigned threads = 2;
  uint64_t memory = cover::SpillOptions{}.memory;  // the shingle index's budget (--pages)
};

// Compact per-image facts; ImageDocuments are built from them one at a time, as a reader of
// an index would decode them, so the input does not count in the cover's peak RSS.
struct Collection {
  std::vector<uint64_t> phash;
  std::vector<uint32_t> url, look, width, height, day;
  size_t looks = 0;
};

uint64_t balanced_hash(std::mt19937_64& rng) {
  uint64_t hash = 0;
  while (std::popcount(hash) < 32) hash |= uint64_t{1} << (rng() % 64);
  return hash;
}

Collection generate(size_t n) {
  std::mt19937_64 rng(2024);
  Collection c;
  std::vector<uint64_t> base;
  const size_t urls = std::max<size_t>(1, n * 10 / 22);
  for (size_t i = 0; i < n; ++i) {
    uint64_t hash;
    uint32_t look;
    if (base.empty() || rng() % 100 >= 40) {
      look = static_cast<uint32_t>(base.size());
      base.push_back(hash = balanced_hash(rng));
    } else {
      look = static_cast<uint32_t>(rng() % base.size());
      hash = base[look];
      for (size_t f = 1 + rng() % 3; f > 0; --f) hash ^= uint64_t{1} << (rng() % 64);
    }
    c.phash.push_back(hash);
    c.look.push_back(look);
    c.url.push_back(static_cast<uint32_t>(rng() % urls));
    c.width.push_back(100 + static_cast<uint32_t>(rng() % 900));
    c.height.push_back(100 + static_cast<uint32_t>(rng() % 900));
    c.day.push_back(static_cast<uint32_t>(rng() % 7000));
  }
  c.looks = base.size();
  return c;
}

merge::ImageDocument document(const Collection& c, size_t i, index::Moderation& m) {
  merge::ImageDocument d;
  d.id = d.imgDigest = std::to_string(i);
  const std::string url = std::to_string(c.url[i]), host = std::to_string(c.url[i] % 5000);
  d.imgUrl = "http://host" + host + ".pt/img/" + url + ".jpg";
  d.imgSurt = "pt,host" + host + ")/img/" + url + ".jpg";
  d.pageHost = "host" + host + ".pt";
  char ts[32];
  std::snprintf(ts, sizeof ts, "20%02u%02u%02u120000", c.day[i] / 365 % 20, 1 + c.day[i] / 28 % 12,
                1 + c.day[i] % 28);
  d.imgCrawlTimestamp = d.imgCrawlTimestampLatest = ts;
  d.imgWidth = static_cast<int>(c.width[i]);
  d.imgHeight = static_cast<int>(c.height[i]);
  d.imgSize = 1000 + c.width[i] * 37;
  d.imgAlt = {"photo of look " + std::to_string(c.look[i])};
  m = {};
  m.phash = c.phash[i];
  return d;
}

double cpu_seconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
         static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

struct OfflinePass {
  double cpu = 0;
  size_t kept = 0, components = 0, exact = 0, greedy = 0, largest = 0, lower_bound = 0;
  uint64_t edges = 0;
};

void offline(const Collection& c, const char* where, unsigned threads) {
  auto f = bench::measure_in_child<OfflinePass>(1, [&] {
    const double cpu0 = cpu_seconds();
    const auto e = cover::parse(where);
    const auto uses = cover::attributes_used(*e);
    std::vector<cover::Item> items;
    items.reserve(c.phash.size());
    index::Moderation m;
    for (size_t i = 0; i < c.phash.size(); ++i) {
      const auto d = document(c, i, m);
      items.push_back(cover::item_from_document(d, m, uses));
    }
    const auto r = cover::compute_cover(*e, items, {.threads = threads});
    return OfflinePass{
        cpu_seconds() - cpu0, r.kept,        r.components, r.exact_components, r.greedy_components,
        r.largest_component,  r.lower_bound, r.edges};
  });
  std::printf(
      "offline %-10s %zu images: wall %.2f s, cpu %.2f s, peak RSS %.0f MB; kept %zu "
      "(lower bound %zu), %zu components (largest %zu), exact %zu, greedy %zu, %llu edges\n",
      where, c.phash.size(), f.seconds, f.pass.cpu, f.max_rss_kib / 1024.0, f.pass.kept,
      f.pass.lower_bound, f.pass.components, f.pass.largest, f.pass.exact, f.pass.greedy,
      static_cast<unsigned long long>(f.pass.edges));
}

struct GroupPass {
  double cpu = 0;
  size_t groups = 0, grouped = 0;
};

void baseline(const Collection& c, unsigned threads) {
  auto f = bench::measure_in_child<GroupPass>(1, [&] {
    const double cpu0 = cpu_seconds();
    std::vector<similar::Image> images;
    for (size_t i = 0; i < c.phash.size(); ++i)
      images.push_back({std::to_string(i), c.phash[i], static_cast<int>(c.width[i]),
                        static_cast<int>(c.height[i]), 0});
    const auto g = similar::group_near_duplicates(images, 6, threads);
    return GroupPass{cpu_seconds() - cpu0, g.groups, g.grouped};
  });
  std::printf(
      "baseline similar groups radius 6: wall %.2f s, cpu %.2f s, peak RSS %.0f MB; %zu "
      "groups, %zu images grouped\n",
      f.seconds, f.pass.cpu, f.max_rss_kib / 1024.0, f.pass.groups, f.pass.grouped);
}

double percentile(std::vector<double> v, double p) {
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, static_cast<size_t>(p * static_cast<double>(v.size())))];
}

void interactive(const Collection& c, const Options& o) {
  std::vector<std::vector<uint32_t>> by_look(c.looks);
  for (uint32_t i = 0; i < c.phash.size(); ++i) by_look[c.look[i]].push_back(i);
  std::mt19937_64 rng(7);
  std::vector<std::vector<uint32_t>> windows(o.windows);
  for (auto& w : windows) {
    while (w.size() < o.window) {
      const auto& members = by_look[rng() % c.looks];
      for (uint32_t i : members)
        if (w.size() < o.window) w.push_back(i);
    }
    std::shuffle(w.begin(), w.end(), rng);  // rank order
  }
  // Thread CPU time: on a shared VM, wall time per window measures the other processes.
  auto now_ms = [] {
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) / 1e6;
  };
  for (const char* where : {"near", "versions", "phash<=8,larger,better", "same(host),near"}) {
    const auto e = cover::parse(where);
    const auto uses = cover::attributes_used(*e);
    std::vector<double> build_ms, cover_ms;
    size_t kept = 0;
    for (const auto& w : windows) {
      // The hits as the searcher has decoded them (their decoding is not timed here).
      std::vector<std::pair<merge::ImageDocument, index::Moderation>> hits(w.size());
      for (size_t k = 0; k < w.size(); ++k) hits[k].first = document(c, w[k], hits[k].second);
      const double t0 = now_ms();
      std::vector<cover::Item> items;
      items.reserve(w.size());
      for (const auto& [d, m] : hits) {
        items.push_back(cover::item_from_document(d, m, uses));
        items.back().set(cover::NumberAttr::rank, static_cast<double>(items.size()));
      }
      const double t1 = now_ms();
      kept += cover::compute_cover(*e, items, {.ilp_time_ms = static_cast<int>(o.ilp_ms)}).kept;
      const double t2 = now_ms();
      build_ms.push_back(t1 - t0);
      cover_ms.push_back(t2 - t1);
    }
    std::printf(
        "window %zu %-24s CPU: items p50 %.2f ms p99 %.2f ms | cover p50 %.2f ms p99 %.2f ms | "
        "kept %.1f of %zu on average\n",
        o.window, where, percentile(build_ms, 0.5), percentile(build_ms, 0.99),
        percentile(cover_ms, 0.5), percentile(cover_ms, 0.99),
        static_cast<double>(kept) / static_cast<double>(windows.size()), o.window);
  }
}

// Page versions shaped like the paper's data set A: URLs with 1 + Poisson(1.24) versions
// (mean 2.24), 150 words from a Zipf vocabulary of 20,000 after a 30-word boilerplate shared
// by the URL's host; each later version edits the one before (appends up to 20 words,
// replaces up to 5). The paper's relation (1): containment of 5-word shingles >= 0.7, newer.
void pages(size_t n, unsigned threads, uint64_t memory) {
  struct Pass {
    double cpu = 0, build_cpu = 0;
    size_t kept = 0, components = 0, exact = 0, greedy = 0;
    uint64_t candidates = 0, edges = 0, shingles = 0, runs = 0, chunks = 0;
  };
  auto f = bench::measure_in_child<Pass>(1, [&] {
    const double cpu0 = cpu_seconds();
    std::mt19937_64 rng(1667);
    std::vector<double> zipf(20000);
    for (size_t k = 0; k < zipf.size(); ++k) zipf[k] = 1.0 / static_cast<double>(k + 1);
    std::discrete_distribution<uint32_t> word(zipf.begin(), zipf.end());
    std::poisson_distribution<int> more_versions(1.24);
    std::vector<cover::Item> items;
    items.reserve(n);
    // The texts held apart from the items as they are made, within the budget (as `strata
    // cover --items pages` holds them).
    cover::ItemTexts texts({.memory = memory, .temp = {}});
    uint64_t shingles = 0;
    for (size_t url = 0; items.size() < n; ++url) {
      std::vector<uint32_t> words;
      for (int k = 0; k < 30; ++k) words.push_back(static_cast<uint32_t>(url % 1000 * 31 + k));
      for (int k = 0; k < 150; ++k) words.push_back(100000 + word(rng));
      const int versions = 1 + more_versions(rng);
      for (int v = 0; v < versions && items.size() < n; ++v) {
        if (v > 0) {
          for (size_t k = rng() % 6; k > 0; --k) words[30 + rng() % 150] = 100000 + word(rng);
          for (size_t k = rng() % 21; k > 0; --k) words.push_back(100000 + word(rng));
        }
        std::string text;
        for (uint32_t w : words) text += std::to_string(w) + " ";
        cover::Item item;
        item.set(cover::StringAttr::url, std::to_string(url));
        item.set(cover::NumberAttr::ts, static_cast<double>(v));
        auto s = cover::word_shingles(text, 5);
        shingles += s.size();
        item.set(cover::TextAttr::text, std::move(s));
        texts.add(item);
        items.push_back(std::move(item));
      }
    }
    texts.finish();
    const double built = cpu_seconds();
    const auto r = cover::compute_cover(*cover::parse("containment(text)>=0.7,newer"), items,
                                        {.pair_budget = 500'000'000,
                                         .threads = threads,
                                         .spill = {.memory = memory, .temp = {}},
                                         .texts = &texts});
    return Pass{cpu_seconds() - built, built - cpu0,      r.kept,  r.components, r.exact_components,
                r.greedy_components,   r.candidate_pairs, r.edges, shingles,     r.spilled_runs,
                r.text_chunks};
  });
  std::printf(
      "pages %zu (%llu shingles), containment(text)>=0.7,newer: cover cpu %.2f s (texts "
      "generated and shingled: %.2f s), wall %.2f s, peak RSS %.0f MB; kept %zu (removed "
      "%.2f %%), %zu components, exact %zu, greedy %zu, %llu candidate pairs, %llu edges; "
      "within %.0f MB: %llu runs spilled, texts in %llu chunks\n",
      n, static_cast<unsigned long long>(f.pass.shingles), f.pass.cpu, f.pass.build_cpu, f.seconds,
      f.max_rss_kib / 1024.0, f.pass.kept,
      100.0 * static_cast<double>(n - f.pass.kept) / static_cast<double>(n), f.pass.components,
      f.pass.exact, f.pass.greedy, static_cast<unsigned long long>(f.pass.candidates),
      static_cast<unsigned long long>(f.pass.edges), static_cast<double>(memory) / 1e6,
      static_cast<unsigned long long>(f.pass.runs), static_cast<unsigned long long>(f.pass.chunks));
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    const auto value = std::strtoull(argv[i + 1], nullptr, 10);
    if (flag == "--images")
      o.images = value;
    else if (flag == "--windows")
      o.windows = value;
    else if (flag == "--window")
      o.window = value;
    else if (flag == "--pages")
      o.pages = value;
    else if (flag == "--offline")
      o.offline = value;
    else if (flag == "--threads")
      o.threads = static_cast<unsigned>(value);
    else if (flag == "--ilp-ms")
      o.ilp_ms = value;
    else if (flag == "--memory")
      o.memory = value;
  }
  if (o.pages) {  // pages only
    pages(o.pages, o.threads, o.memory);
    return 0;
  }
  const Collection c = generate(o.images);
  std::printf("%zu images, %zu looks\n", c.phash.size(), c.looks);
  if (o.offline) {
    baseline(c, o.threads);
    offline(c, "phash<=6", o.threads);
    offline(c, "versions", o.threads);
  }
  interactive(c, o);
  return 0;
}
