#include "sample/sample.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <thread>

#include "sample/assets.hpp"

namespace strata::sample {

namespace {

void write_manifest(const World& w, const Summary& s, const Truth& truth, const std::string& dir) {
  Json crawls = Json::array();
  for (const Crawl& c : w.crawls)
    crawls.push_back({{"collection", c.collection},
                      {"start", c.start},
                      {"crawler", c.browsertrix ? "browsertrix" : "heritrix"}});
  Json j{{"seed", w.options.seed}, {"sites", w.sites.size()},
         {"crawls", crawls},       {"imageUrls", s.images},
         {"assets", s.assets},     {"documents", s.documents},
         {"records", s.records},   {"imagesTooLarge", truth.too_large},
         {"files", s.files}};
  std::ofstream(std::filesystem::path(dir) / "truth" / "manifest.json") << j.dump(1) << "\n";
}

}  // namespace

Summary generate(const Options& options, const std::string& dir, int threads) {
  auto start = std::chrono::steady_clock::now();
  if (threads <= 0) threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  World w = build_world(options);
  prepare_assets(w.assets, threads);
  double plan_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  int shards = shard_count(w);
  int jobs = static_cast<int>(w.crawls.size()) * shards;
  std::vector<WriteResult> results(static_cast<size_t>(jobs));
  std::atomic<int> next{0};
  auto worker = [&] {
    for (int j; (j = next.fetch_add(1)) < jobs;)
      results[static_cast<size_t>(j)] = write_job(w, dir, j / shards, j % shards);
  };
  std::vector<std::thread> pool;
  for (int i = 1; i < std::min(threads, jobs); ++i) pool.emplace_back(worker);
  worker();
  for (auto& t : pool) t.join();
  WriteResult all;
  for (auto& r : results) {  // job order: deterministic regardless of threads
    all.captures.insert(all.captures.end(), std::make_move_iterator(r.captures.begin()),
                        std::make_move_iterator(r.captures.end()));
    all.pages.insert(all.pages.end(), std::make_move_iterator(r.pages.begin()),
                     std::make_move_iterator(r.pages.end()));
    all.files.insert(all.files.end(), r.files.begin(), r.files.end());
    all.bytes += r.bytes;
    all.records += r.records;
  }
  results = {};  // the events now live in `all` only
  Truth truth = compute_truth(w, all, dir);
  write_truth(truth, dir);
  Summary s;
  s.files = all.files;
  std::sort(s.files.begin(), s.files.end());
  s.bytes = all.bytes;
  s.records = all.records;
  s.images = w.images.size();
  s.assets = w.assets.size();
  s.documents = truth.documents;
  s.plan_seconds = plan_seconds;
  write_manifest(w, s, truth, dir);
  s.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return s;
}

}  // namespace strata::sample
