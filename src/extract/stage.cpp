#include "extract/stage.hpp"

#include <algorithm>
#include <atomic>
#include <fstream>
#include <iomanip>
#include <sstream>
#include <thread>

#include "archive/locate.hpp"

namespace fs = std::filesystem;

namespace strata::extract {
namespace {

std::string part_name(size_t i) {
  std::ostringstream name;
  name << "part-" << std::setw(5) << std::setfill('0') << i << ".jsonl";
  return name.str();
}

bool write_json(const fs::path& path, const Json& j) {
  std::ofstream out(path);
  out << j.dump(2) << '\n';
  return static_cast<bool>(out);
}

}  // namespace

StageResult run_extraction(const std::vector<fs::path>& archives, const ExtractOptions& options,
                           const fs::path& out_dir, unsigned jobs, const ProblemSink& problems,
                           Progress* progress) {
  StageResult result;
  result.archives = archives.size();
  jobs = std::clamp<unsigned>(jobs ? jobs : std::thread::hardware_concurrency(), 1,
                              std::max<size_t>(1, archives.size()));
  std::atomic<size_t> next{0}, unusable{0}, write_failures{0};
  std::vector<Counters> per_thread(jobs);
  auto worker = [&](unsigned t) {
    for (size_t i = next++; i < archives.size(); i = next++) {
      std::ofstream out(out_dir / part_name(i), std::ios::binary);
      if (!out) {
        ++write_failures;
        continue;
      }
      bool ok = extract_archive(archives[i], archive::archive_key(archives[i]), options, out,
                                per_thread[t], problems, [progress](uint64_t n) {
                                  if (!progress) return;
                                  progress->advance(n);
                                  progress->add_items(1);  // called once per record
                                });
      if (!ok) ++unusable;
      out.flush();
      if (!out) ++write_failures;
    }
  };
  std::vector<std::thread> threads;
  for (unsigned t = 0; t < jobs; ++t) threads.emplace_back(worker, t);
  for (auto& thread : threads) thread.join();

  for (const auto& c : per_thread) result.counters.merge(c);
  result.stats = description_stats(result.counters);
  if (!write_json(out_dir / "counters.json", result.counters.to_json()) ||
      !write_json(out_dir / "stats.json", result.stats))
    ++write_failures;
  result.unusable = unusable;
  result.write_failures = write_failures;
  return result;
}

}  // namespace strata::extract
