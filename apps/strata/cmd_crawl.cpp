// strata crawl -o OUT [scope and politeness options] URL... : a polite crawl into WARCs
// (docs/crawl.md). SIGINT/SIGTERM stop it; the same command line resumes it from OUT/state.
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <fstream>
#include <iostream>
#include <memory>

#include "command.hpp"
#include "core/exit_codes.hpp"
#include "core/progress.hpp"
#include "crawl/crawler.hpp"

namespace {

std::atomic<bool> stop_signal{false};

extern "C" void on_stop_signal(int) {
  stop_signal.store(true);
}

struct Options {
  strata::crawl::CrawlOptions crawl;
  std::vector<std::string> urls;
  std::string seeds_file;
  std::string out;
};

bool read_seeds(const std::string& path, std::vector<std::string>& seeds) {
  std::ifstream in(path);
  if (!in) return false;
  for (std::string line; std::getline(in, line);) {
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
    if (!line.empty() && line[0] != '#') seeds.push_back(line);
  }
  return true;
}

// A repeatable option taking one value per use, so seed URLs after it stay seeds.
CLI::Option* add_repeatable(CLI::App& app, const std::string& name,
                            std::vector<std::string>& values, const std::string& description) {
  return app.add_option(name, values, description)
      ->expected(1)
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
}

int run(Options& o) {
  auto& c = o.crawl;
  c.seeds = o.urls;
  if (!o.seeds_file.empty() && !read_seeds(o.seeds_file, c.seeds)) {
    std::cerr << "strata crawl: cannot read --seeds " << o.seeds_file << "\n";
    return strata::exit_code::usage;
  }
  c.out_dir = o.out;
  std::signal(SIGINT, on_stop_signal);
  std::signal(SIGTERM, on_stop_signal);
  c.stop_requested = [] { return stop_signal.load(); };
  const auto& flags = strata::cli::global_flags();
  bool draw = !flags.quiet && isatty(STDERR_FILENO);
  if (draw)
    c.on_progress = [](const std::string& line) { std::cerr << "\r\033[K" << line << std::flush; };
  strata::ProblemLog problems;
  strata::crawl::CrawlReport report;
  try {
    report = strata::crawl::run_crawl(c, problems);
  } catch (const std::exception& e) {
    std::cerr << "\nstrata crawl: " << e.what() << "\n";
    return strata::exit_code::failure;
  }
  if (draw) std::cerr << "\r\033[K";
  strata::Json near = strata::Json::array();
  for (const auto& [page, earlier] : report.near_duplicates)
    near.push_back({{"page", page}, {"near duplicate of", earlier}});
  strata::Json warcs = strata::Json::array();
  for (const auto& path : report.warcs) warcs.push_back(path.string());
  strata::cli::print_report({{"summary",
                              {{"fetches", report.counters.get("fetches")},
                               {"responses", report.counters.get("responses")},
                               {"revisits", report.counters.get("revisits")},
                               {"queued left", report.queued_left},
                               {"stopped", report.stopped},
                               {"seconds", report.seconds}}},
                             {"counters", report.counters.to_json()},
                             {"warcs", warcs},
                             {"near duplicates", near},
                             {"problems", strata::problems_json(problems)}});
  if (c.seeds.empty() && report.counters.get("resumed_urls") == 0)
    return strata::exit_code::no_input;
  return problems.total() > 0 ? strata::exit_code::input_problems : strata::exit_code::ok;
}

const bool registered = strata::cli::register_command(
    "crawl", "Crawl politely from seeds into WARC files (resumable)",
    [](CLI::App& app) -> strata::cli::Runner {
      auto o = std::make_shared<Options>();
      auto& c = o->crawl;
      app.add_option("urls", o->urls, "seed URLs");
      app.add_option("--seeds", o->seeds_file, "file of seed URLs, one a line");
      app.add_option("-o,--out", o->out, "output folder: WARCs, and state/ for resuming")
          ->required();
      app.add_option("--prefix", c.warc_prefix, "WARC file name prefix")->capture_default_str();
      strata::cli::add_size_option(app, "--warc-size", c.max_warc_bytes,
                                   "rotate WARC files past this size (1GB)");
      add_repeatable(app, "--host", c.scope.hosts,
                     "host in scope (repeatable; seeds' hosts always are)");
      add_repeatable(app, "--domain", c.scope.domains,
                     "domain in scope, with its subdomains (repeatable)");
      add_repeatable(app, "--surt", c.scope.surt_prefixes, "SURT prefix in scope (repeatable)");
      add_repeatable(app, "--path", c.scope.path_prefixes,
                     "pages only under these path prefixes (repeatable)");
      app.add_flag("!--no-offsite-embeds", c.scope.embeds_anywhere,
                   "fetch images only from hosts in scope");
      app.add_option("--max-depth", c.max_depth, "link hops from a seed")->capture_default_str();
      app.add_option("--max-pages-per-host", c.max_pages_per_host, "pages per host (0: no limit)");
      app.add_option("--max-fetches", c.max_fetches, "fetches in this run (0: no limit)");
      app.add_option("--connections", c.connections, "fetches at once, one per host")
          ->capture_default_str();
      app.add_option("--delay-factor", c.politeness.delay_factor,
                     "wait this times the last fetch's duration")
          ->capture_default_str();
      app.add_option("--min-delay", c.politeness.min_delay_s,
                     "seconds between fetches from a host, at least")
          ->capture_default_str();
      app.add_option("--max-delay", c.politeness.max_delay_s,
                     "seconds between fetches from a host, at most (Crawl-delay may raise it)")
          ->capture_default_str();
      app.add_option("--max-crawl-delay", c.politeness.max_crawl_delay_s,
                     "robots Crawl-delay honoured up to this")
          ->capture_default_str();
      app.add_option("--agent", c.agent, "robots.txt product token, also in the User-Agent")
          ->capture_default_str();
      app.add_option("--contact", c.contact_url, "contact URL for the User-Agent (+URL)");
      app.add_option("--back-queues", c.max_back_queues, "hosts crawled at once (Mercator's B)")
          ->capture_default_str();
      add_repeatable(app, "--connect-to", c.fetch.connect_to,
                     "curl CONNECT_TO rule HOST:PORT:TO-HOST:TO-PORT (tests)");
      app.add_option("--timeout", c.fetch.total_timeout_s, "seconds for a whole fetch")
          ->capture_default_str();
      strata::cli::add_size_option(app, "--max-body", c.fetch.max_body_bytes,
                                   "bytes kept per response (32M)");
      app.add_option("--max-attempts", c.max_attempts, "attempts per URL on 429/503/network errors")
          ->capture_default_str();
      return [o] { return run(*o); };
    });

}  // namespace
