#pragma once
// Latency figures of a query load: `clients` threads take the next query until none is
// left, timing each one, and what the queries returned (a latency of empty answers
// measures nothing: see returned_nothing()).
#include <cstddef>
#include <functional>
#include <string>

namespace strata::bench {

struct Latency {
  size_t queries = 0;
  double p50_ms = 0, p90_ms = 0, p99_ms = 0, mean_ms = 0;
  double qps = 0;
  double hits_per_query = 0;  // mean results returned (at most a page)
};

// Runs run_query(query_index, client_index) for every index in [0, n); it returns the
// number of results the query returned.
Latency run_load(size_t n, int clients, const std::function<size_t(size_t, int)>& run_query);

// True when the load returned no result at all (printed as such).
bool returned_nothing(const Latency& l);

std::string describe(const Latency& l);

}  // namespace strata::bench
