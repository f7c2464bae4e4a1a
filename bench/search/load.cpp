#include "load.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <numeric>
#include <thread>
#include <vector>

namespace strata::bench {
namespace {

using Clock = std::chrono::steady_clock;

double percentile(const std::vector<double>& sorted, double p) {
  if (sorted.empty()) return 0;
  size_t i = static_cast<size_t>(p * static_cast<double>(sorted.size() - 1) + 0.5);
  return sorted[std::min(i, sorted.size() - 1)];
}

}  // namespace

Latency run_load(size_t n, int clients, const std::function<size_t(size_t, int)>& run_query) {
  std::vector<double> ms(n);
  std::atomic<size_t> next{0}, hits{0};
  auto worker = [&](int client) {
    for (size_t i = next++; i < n; i = next++) {
      auto t0 = Clock::now();
      hits += run_query(i, client);
      ms[i] = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
    }
  };
  auto start = Clock::now();
  std::vector<std::thread> threads;
  for (int c = 0; c < clients; ++c) threads.emplace_back(worker, c);
  for (auto& t : threads) t.join();
  double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  std::sort(ms.begin(), ms.end());
  Latency l;
  l.queries = n;
  l.p50_ms = percentile(ms, 0.50);
  l.p90_ms = percentile(ms, 0.90);
  l.p99_ms = percentile(ms, 0.99);
  l.mean_ms = n ? std::accumulate(ms.begin(), ms.end(), 0.0) / static_cast<double>(n) : 0;
  l.qps = seconds > 0 ? static_cast<double>(n) / seconds : 0;
  l.hits_per_query = n ? static_cast<double>(hits.load()) / static_cast<double>(n) : 0;
  return l;
}

bool returned_nothing(const Latency& l) {
  return l.hits_per_query == 0;
}

std::string describe(const Latency& l) {
  char buf[240];
  std::snprintf(buf, sizeof buf,
                "%zu queries  p50 %.2f ms  p90 %.2f ms  p99 %.2f ms  mean %.2f ms  %.0f q/s  "
                "%.1f hits/query%s",
                l.queries, l.p50_ms, l.p90_ms, l.p99_ms, l.mean_ms, l.qps, l.hits_per_query,
                returned_nothing(l) ? " (NOTHING RETURNED)" : "");
  return buf;
}

}  // namespace strata::bench
