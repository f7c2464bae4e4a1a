#pragma once
// Shared by the similar-image benchmarks: the process's CPU time; per-query wall and CPU
// time (the process's: a lookup may use a helper thread), as p50 / p99 / max, and the hits the
// queries returned.
#include <sys/resource.h>
#include <time.h>

#include <algorithm>
#include <chrono>
#include <vector>

namespace strata::bench {

inline double cpu_seconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_utime.tv_sec + usage.ru_stime.tv_sec +
         (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

inline double process_cpu_ms() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

struct Percentiles {
  double p50 = 0, p99 = 0, max = 0;  // milliseconds
};

inline Percentiles percentiles(std::vector<double> ms) {
  std::sort(ms.begin(), ms.end());
  return {ms[ms.size() / 2], ms[std::min(ms.size() - 1, ms.size() * 99 / 100)], ms.back()};
}

struct Latency {
  Percentiles wall, cpu;
  size_t hits = 0, queries_with_hits = 0;
};

// `search(query)` returns how many images it found (the query's own image included).
template <typename Query, typename Search>
Latency run_queries(const std::vector<Query>& queries, Search search) {
  std::vector<double> wall, cpu;
  Latency l;
  for (const Query& q : queries) {
    const auto t0 = std::chrono::steady_clock::now();
    const double c0 = process_cpu_ms();
    const size_t found = search(q);
    cpu.push_back(process_cpu_ms() - c0);
    wall.push_back(
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    l.hits += found;
    l.queries_with_hits += found > 1;  // more than the image itself
  }
  l.wall = percentiles(wall);
  l.cpu = percentiles(cpu);
  return l;
}

}  // namespace strata::bench
