#pragma once
// The crawl loop: seeds → frontier (politeness, priorities) → robots.txt check → fetch →
// WARC → outlinks (normalised, trap-checked, scoped) → frontier. State lives in
// OUT/state (UrlStore), WARCs in OUT: a crawl stopped (stop_requested) or killed resumes
// from there with the same options, without refetching what was written or losing what was
// queued. Bad servers and bad pages are counted and reported, never fatal; run_crawl throws
// std::runtime_error only when the output or state folder fails.
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "core/counters.hpp"
#include "core/problems.hpp"
#include "crawl/fetcher.hpp"
#include "crawl/frontier.hpp"
#include "crawl/url_rules.hpp"

namespace strata::crawl {

struct CrawlOptions {
  std::vector<std::string> seeds;
  std::filesystem::path out_dir;
  std::string warc_prefix = "STRATA";
  uint64_t max_warc_bytes = 1000ull * 1000 * 1000;
  Scope scope;
  TrapLimits traps;
  uint32_t max_depth = 3;           // link hops from a seed
  uint64_t max_pages_per_host = 0;  // link-lane fetches per host; 0 = no limit
  uint64_t max_fetches = 0;         // in this run; 0 = no limit
  uint32_t max_redirects = 5;       // per chain
  uint32_t max_attempts = 3;        // per URL, for 429/503 and network failures
  Politeness politeness;
  FetchOptions fetch;               // fetch.user_agent is set from agent/contact when empty
  std::string agent = "StrataBot";  // robots.txt product token
  std::string contact_url;          // in the User-Agent, "+URL"
  std::size_t connections = 8;      // transfers at once (one per host)
  // Hosts with a back queue at once. Mercator's 3 × threads fits blocking threads; fetches
  // here are asynchronous, so the bound is the crawl rate: at most this / delay fetches/s.
  std::size_t max_back_queues = 1000;
  double robots_max_age_s = 24 * 3600;
  std::function<bool()> stop_requested;
  std::function<void(const std::string& line)> on_progress;  // about once a second
};

struct CrawlReport {
  Counters counters;  // fetches, responses, revisits, robots_*, trap_*, out_of_scope, ...
  std::vector<std::filesystem::path> warcs;
  // (page, earlier page it nearly duplicates), the first 1000 of this run.
  std::vector<std::pair<std::string, std::string>> near_duplicates;
  uint64_t queued_left = 0;  // URLs left in the frontier (a stopped crawl resumes them)
  bool stopped = false;
  double seconds = 0;
};

std::string user_agent(const std::string& agent, const std::string& contact_url);

CrawlReport run_crawl(const CrawlOptions& options, ProblemLog& problems);

}  // namespace strata::crawl
