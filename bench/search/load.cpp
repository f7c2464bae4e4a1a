#include "load.hpp"

#include <sys/resource.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <numeric>
#include <thread>
#include <vector>

namespace strata::bench {
namespace {

using Clock = std::chrono::steady_clock;

double thread_cpu_ms() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) * 1e-6;
}

double mean(const std::vector<double>& v) {
  return v.empty() ? 0 : std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
}

double percentile(const std::vector<double>& sorted, double p) {
  if (sorted.empty()) return 0;
  size_t i = static_cast<size_t>(p * static_cast<double>(sorted.size() - 1) + 0.5);
  return sorted[std::min(i, sorted.size() - 1)];
}

}  // namespace

Latency run_load(size_t n, int clients, const std::function<size_t(size_t, int)>& run_query) {
  std::vector<double> ms(n), cpu_ms(n);
  std::atomic<size_t> next{0}, hits{0};
  auto worker = [&](int client) {
    for (size_t i = next++; i < n; i = next++) {
      const auto t0 = Clock::now();
      const double cpu0 = thread_cpu_ms();
      hits += run_query(i, client);
      cpu_ms[i] = thread_cpu_ms() - cpu0;
      ms[i] = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
    }
  };
  auto start = Clock::now();
  std::vector<std::thread> threads;
  for (int c = 0; c < clients; ++c) threads.emplace_back(worker, c);
  for (auto& t : threads) t.join();
  double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  Latency l;
  l.cpu_ms_by_query = cpu_ms;
  std::sort(ms.begin(), ms.end());
  l.queries = n;
  l.p50_ms = percentile(ms, 0.50);
  l.p90_ms = percentile(ms, 0.90);
  l.p99_ms = percentile(ms, 0.99);
  l.mean_ms = mean(ms);
  std::sort(cpu_ms.begin(), cpu_ms.end());
  l.cpu_p50_ms = percentile(cpu_ms, 0.50);
  l.cpu_p99_ms = percentile(cpu_ms, 0.99);
  l.cpu_mean_ms = mean(cpu_ms);
  l.qps = seconds > 0 ? static_cast<double>(n) / seconds : 0;
  l.hits_per_query = n ? static_cast<double>(hits.load()) / static_cast<double>(n) : 0;
  return l;
}

double process_cpu_seconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  auto s = [](const timeval& t) { return static_cast<double>(t.tv_sec) + t.tv_usec * 1e-6; };
  return s(u.ru_utime) + s(u.ru_stime);
}

bool returned_nothing(const Latency& l) {
  return l.hits_per_query == 0;
}

std::string describe(const Latency& l, bool with_cpu) {
  char buf[320], cpu[100] = "";
  if (with_cpu)
    std::snprintf(cpu, sizeof cpu, "  CPU p50 %.2f ms  p99 %.2f ms  mean %.2f ms", l.cpu_p50_ms,
                  l.cpu_p99_ms, l.cpu_mean_ms);
  std::snprintf(buf, sizeof buf,
                "%zu queries  p50 %.2f ms  p90 %.2f ms  p99 %.2f ms  mean %.2f ms  %.0f q/s%s  "
                "%.1f hits/query%s",
                l.queries, l.p50_ms, l.p90_ms, l.p99_ms, l.mean_ms, l.qps, cpu, l.hits_per_query,
                returned_nothing(l) ? " (NOTHING RETURNED)" : "");
  return buf;
}

}  // namespace strata::bench
