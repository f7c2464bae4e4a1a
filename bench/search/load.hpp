#pragma once
// Latency figures of a query load: `clients` threads take the next query until none is
// left, timing each one, and what the queries returned (a latency of empty answers
// measures nothing: see returned_nothing()).
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace strata::bench {

struct Latency {
  size_t queries = 0;
  double p50_ms = 0, p90_ms = 0, p99_ms = 0, mean_ms = 0;
  double qps = 0;
  // CPU time of the thread that ran each query: on a loaded machine, what a query costs
  // without the time it waited for a core (in process only: a client's CPU is not the
  // server's).
  double cpu_p50_ms = 0, cpu_p99_ms = 0, cpu_mean_ms = 0;
  double hits_per_query = 0;            // mean results returned (at most a page)
  std::vector<double> cpu_ms_by_query;  // each query's CPU time, in query order
};

// Runs run_query(query_index, client_index) for every index in [0, n); it returns the
// number of results the query returned.
Latency run_load(size_t n, int clients, const std::function<size_t(size_t, int)>& run_query);

// CPU seconds (user + sys) of the whole process so far.
double process_cpu_seconds();

// True when the load returned no result at all (printed as such).
bool returned_nothing(const Latency& l);

std::string describe(const Latency& l, bool with_cpu);

}  // namespace strata::bench
