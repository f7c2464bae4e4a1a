#pragma once
// Latency figures of a query load: `clients` threads take the next query until none is
// left, timing each one.
#include <cstddef>
#include <functional>
#include <string>

namespace strata::bench {

struct Latency {
  size_t queries = 0;
  double p50_ms = 0, p90_ms = 0, p99_ms = 0, mean_ms = 0;
  double qps = 0;
};

// Runs run_query(query_index, client_index) for every index in [0, n).
Latency run_load(size_t n, int clients, const std::function<void(size_t, int)>& run_query);

std::string describe(const Latency& l);

}  // namespace strata::bench
