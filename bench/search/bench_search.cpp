// bench_search [--docs N] [--work DIR] [--queries FILE] [--subset N] [--http-queries N]
//              [--sample-scale SCALE] [--new-connections] [--compact] [--reuse] [--build-only]
//              [--jobs N] [--batch N] [--no-fts5] [--in-process-only] [--slowest N]
//              [--hits FILE] [--as-served-only]
// Builds an N-document image index (default 1M; --docs 10000000 for the 10M run) from the
// sample generator's text model through the real index code, and the same documents into
// SQLite FTS5; reports build rate and bytes per document (--compact: also after a Xapian
// compaction, as `xapian-compact` would leave it). Then runs the real query log:
// in process (Strata's BM25F vs FTS5 on a fixed subset: every k-th query) and through
// HTTP against the `strata serve` server code with 1 and 50 clients (--http-queries, 0 =
// all). Last, it writes a sample archive (`strata sample`, --sample-scale, default demo) and
// measures the ranking quality on its judged queries. docs/BENCHMARKS.md, "Search".
// Queries run as a user's do by default (safe search on, totals, the years facet, phrase
// boosts); every load prints its mean hits per query, and the run exits 1 when a load
// returned no result at all (a latency of empty answers measures nothing). --hits writes what
// each in-process query returned, to compare two builds' answers.
#include <httplib.h>
#include <sys/resource.h>
#include <CLI/CLI.hpp>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <thread>

#include "corpus.hpp"
#include "fts5.hpp"
#include "index/compact.hpp"
#include "index/sharded_build.hpp"
#include "index/writer.hpp"
#include "load.hpp"
#include "quality.hpp"
#include "sample/sample.hpp"
#include "search/searcher.hpp"
#include "search/spy_tables.hpp"
#include "server/server.hpp"
#include "server/url_encode.hpp"

using namespace strata;
using namespace strata::bench;
namespace fs = std::filesystem;

namespace {

struct Config {
  uint64_t docs = 1'000'000;
  std::string work = "/tmp/strata-bench-search";
  std::string queries = "../shared/data/arquivo/queries-pt-2word.txt";
  size_t subset = 5000;
  size_t http_queries = 0;
  std::string sample_scale = "demo";
  bool reuse = false;
  bool new_connections = false;
  bool compact = false;
  bool build_only = false;
  bool in_process_only = false;
  bool as_served_only = false;  // only the as-served in-process load (for profiling)
  size_t slowest = 0;
  std::string hits_file;  // each query's total, years facet and hit ids, as served
  bool fts5 = true;
  uint64_t seed = 1;
  uint64_t batch = 10'000;  // documents per transaction
  unsigned jobs = 1;        // index shards built in parallel, then merged
};

uint64_t bytes_of(const fs::path& p) {
  if (fs::is_regular_file(p)) return fs::file_size(p);
  uint64_t sum = 0;
  for (const auto& e : fs::recursive_directory_iterator(p))
    if (e.is_regular_file()) sum += e.file_size();
  return sum;
}

// Runs `build_all`; prints docs/s (wall), CPU per document and bytes/doc.
void build(const char* what, const fs::path& path, uint64_t n,
           const std::function<void()>& build_all) {
  const auto t0 = std::chrono::steady_clock::now();
  const double cpu0 = process_cpu_seconds();
  build_all();
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const double cpu = process_cpu_seconds() - cpu0, docs = static_cast<double>(n);
  std::printf(
      "%s build: %llu docs in %.1f s = %.0f docs/s; CPU %.1f s = %.3f ms/doc; %.0f bytes/doc\n",
      what, static_cast<unsigned long long>(n), s, docs / s, cpu, cpu * 1e3 / docs,
      static_cast<double>(bytes_of(path)) / docs);
  std::fflush(stdout);
}

// Feeds documents [0, n) to `add_range` in transactions of `batch`, with progress on stderr.
void in_batches(const char* what, uint64_t n, uint64_t batch,
                const std::function<void(uint64_t, uint64_t)>& add_range) {
  for (uint64_t from = 0; from < n; from += batch) {
    add_range(from, std::min(n, from + batch));
    std::fprintf(stderr, "\r%s: %llu / %llu", what,
                 static_cast<unsigned long long>(std::min(n, from + batch)),
                 static_cast<unsigned long long>(n));
  }
  std::fprintf(stderr, "\n");
}

// Bytes per document of each Xapian table (postlist holds the value streams too), and of
// the index without its termlist table: what `strata compact --serving` keeps.
void report_tables(const char* what, const fs::path& dir, uint64_t n) {
  std::printf("%s per table:", what);
  uint64_t termlist = 0;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().extension() == ".glass") {
      std::printf(" %s %.0f", e.path().stem().c_str(),
                  static_cast<double>(e.file_size()) / static_cast<double>(n));
      if (e.path().stem() == "termlist") termlist = e.file_size();
    }
  std::printf(" bytes/doc; without termlist (serving copy) %.0f bytes/doc\n",
              static_cast<double>(bytes_of(dir) - termlist) / static_cast<double>(n));
}

// The index is the shards' merge, compacted (index/sharded_build.hpp).
void build_xapian(const fs::path& dir, uint64_t n, const Config& c, const Corpus& corpus) {
  index::ShardedBuild options;
  options.jobs = c.jobs;
  options.commit_every = c.batch;
  std::atomic<uint64_t> done{0};
  const auto t0 = std::chrono::steady_clock::now();
  auto document = [&](uint64_t i) {
    if (++done % 100'000 == 0)
      std::fprintf(stderr, "xapian: %llu / %llu documents, %.0f s, CPU %.0f s\n",
                   static_cast<unsigned long long>(done.load()), static_cast<unsigned long long>(n),
                   std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(),
                   process_cpu_seconds());
    return corpus.document(i);
  };
  options.moderate = [&](const merge::ImageDocument& d, index::Moderation& m) {
    m = corpus.moderation(d);
  };
  build("xapian", dir, n, [&] { index::build_sharded(dir, n, document, options); });
  report_tables("xapian", dir, n);
}

void build_fts5(const fs::path& file, uint64_t n, const Corpus& corpus) {
  Fts5 fts(file.string());
  build("fts5", file, n, [&] {
    in_batches("fts5", n, 100'000, [&](uint64_t from, uint64_t to) {
      fts.begin();
      for (uint64_t i = from; i < to; ++i) {
        const merge::ImageDocument d = corpus.document(i);
        fts.add(d, corpus.moderation(d));
      }
      fts.commit();
    });
  });
}

void report_compacted(const fs::path& dir, uint64_t n, const char* when = "") {
  const fs::path out = dir.string() + "-compacted";
  fs::remove_all(out);
  index::compact_index(dir, out);  // what `strata compact` writes
  std::printf("xapian compacted%s: %.1f bytes/doc\n", when,
              static_cast<double>(bytes_of(out)) / static_cast<double>(n));
  report_tables("xapian compacted", out, n);
  fs::remove_all(out);
}

// Near-duplicate groups over the whole index, in one transaction, as every `strata index`
// batch regroups (docs/near-duplicates.md, "In the index").
void group_near_duplicates(const fs::path& dir, uint64_t n, unsigned jobs) {
  const uint64_t bytes_before = bytes_of(dir);
  const auto t0 = std::chrono::steady_clock::now();
  const double cpu0 = process_cpu_seconds();
  index::IndexWriter writer(dir);
  writer.begin();
  const index::RegroupReport r = writer.regroup_near_duplicates(jobs);
  writer.commit();
  std::printf(
      "near-duplicate groups: %llu hashed images, %llu groups of %llu images, %llu documents "
      "rewritten; %.1f s, CPU %.1f s; index %+.1f bytes per image (not compacted)\n",
      static_cast<unsigned long long>(r.hashed), static_cast<unsigned long long>(r.groups),
      static_cast<unsigned long long>(r.grouped), static_cast<unsigned long long>(r.changed),
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(),
      process_cpu_seconds() - cpu0,
      (static_cast<double>(bytes_of(dir)) - static_cast<double>(bytes_before)) /
          static_cast<double>(n));
}

// Query i with a date filter (docs/search.md, "Capture dates"): two years and a quarter from
// mid-March (month and day terms at both ends, year terms between); every other query's
// bounds fall inside a day, so its edge days are checked against the capture times.
void add_dates(search::SearchRequest& r, size_t i) {
  const int year = 1996 + static_cast<int>(i % 25);
  const bool inside_day = i % 2;
  char from[16], to[16];
  std::snprintf(from, sizeof from, "%04d0315%s", year, inside_day ? "120000" : "000000");
  std::snprintf(to, sizeof to, "%04d0610%s", year + 2, inside_day ? "120000" : "235959");
  r.from = from;
  r.to = to;
}

// Prints each load's figures and remembers whether one returned nothing: then the run fails.
class Report {
 public:
  void print(const char* what, const Latency& l, bool with_cpu = true) {
    std::printf("%-34s %s\n", what, describe(l, with_cpu).c_str());
    std::fflush(stdout);
    if (returned_nothing(l)) empty_.push_back(what);
  }
  // Non-zero (and says which) when a load returned nothing.
  int exit_code() const {
    for (const auto& what : empty_) std::printf("FAILED: %s returned no result\n", what.c_str());
    return empty_.empty() ? 0 : 1;
  }

 private:
  std::vector<std::string> empty_;
};

// What a user gets by default (safe search, totals, the years facet, phrase boosts), less
// what `tweak` turns off or adds.
Latency in_process(const fs::path& dir, const std::vector<std::string>& qs,
                   const std::function<void(search::SearchRequest&, size_t)>& tweak) {
  Xapian::Database db(dir.string());
  search::capture_years_of(db, false);  // read at startup by `strata serve` too
  search::group_members_of(db, false);
  return run_load(qs.size(), 1, [&](size_t i, int) {
    search::SearchRequest r;
    r.q = qs[i];
    if (tweak) tweak(r, i);
    return search::search(db, r).hits.size();
  });
}

// One line per query, as served: the query, its total, the years facet and the page's ids in
// order (two builds answer alike when their files are equal).
void write_hits(const fs::path& dir, const std::vector<std::string>& qs, const fs::path& file) {
  Xapian::Database db(dir.string());
  std::ofstream out(file);
  for (const auto& q : qs) {
    search::SearchRequest r;
    r.q = q;
    const search::SearchResult res = search::search(db, r);
    out << q << '\t' << res.total << '\t';
    for (const auto& [year, n] : res.years) out << year << ':' << n << ' ';
    for (const auto& hit : res.hits) out << '\t' << hit.doc.id;
    out << '\n';
  }
  if (!out) throw std::runtime_error("cannot write " + file.string());
}

// The number of items in an /imagesearch reply (0 when it has none or is not one).
size_t response_items(const std::string& body) {
  static const std::string key = "\"numberOfResponseItems\":";
  const size_t at = body.find(key);
  return at == std::string::npos ? 0 : std::strtoull(body.c_str() + at + key.size(), nullptr, 10);
}

Latency over_http(int port, const std::vector<std::string>& qs, int clients, bool keep_alive) {
  std::vector<std::unique_ptr<httplib::Client>> pool;
  for (int c = 0; c < clients; ++c) {
    pool.push_back(std::make_unique<httplib::Client>("127.0.0.1", port));
    pool.back()->set_keep_alive(keep_alive);
  }
  std::atomic<size_t> failures{0};
  std::atomic<int> last_error{0};
  Latency l = run_load(qs.size(), clients, [&](size_t i, int c) -> size_t {
    auto res = pool[static_cast<size_t>(c)]->Get("/imagesearch?q=" + server::url_encode(qs[i]));
    if (res && res->status == 200) return response_items(res->body);
    ++failures;
    last_error = res ? res->status : -static_cast<int>(res.error());
    return 0;
  });
  if (failures)
    std::printf("  (%zu failed requests; last: %s)\n", failures.load(),
                last_error > 0 ? ("HTTP " + std::to_string(last_error.load())).c_str()
                               : httplib::to_string(httplib::Error(-last_error.load())).c_str());
  return l;
}

// The `strata serve` code with its defaults (safe search on), queries as the web page sends
// them (q only).
void run_http(const fs::path& dir, const std::vector<std::string>& qs, bool keep_alive,
              Report& report) {
  server::ServerOptions options;
  options.index_dir = dir;
  options.port = 0;
  server::Server srv(options);
  if (!srv.bind()) throw std::runtime_error("cannot bind");
  std::thread serving([&] { srv.run(); });
  for (int clients : {1, 50}) {
    const std::string what = "http " + std::to_string(clients) + " client(s):";
    const double cpu0 = process_cpu_seconds();
    report.print(what.c_str(), over_http(srv.port(), qs, clients, keep_alive), false);
    // Server and clients share this process: the CPU of both, per query, is what bounds
    // the rate on a machine of its own (2 cores: 2 s of CPU per second).
    std::printf("  process CPU (server + clients): %.3f ms per query\n",
                (process_cpu_seconds() - cpu0) * 1e3 / static_cast<double>(qs.size()));
  }
  srv.stop();
  serving.join();
}

// The `n` queries of a load that took the most CPU, costliest first.
void print_slowest(const Latency& l, const std::vector<std::string>& qs, size_t n) {
  std::vector<size_t> order(qs.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  n = std::min(n, order.size());
  std::partial_sort(
      order.begin(), order.begin() + static_cast<std::ptrdiff_t>(n), order.end(),
      [&](size_t a, size_t b) { return l.cpu_ms_by_query[a] > l.cpu_ms_by_query[b]; });
  for (size_t k = 0; k < n; ++k)
    std::printf("  costliest: %8.2f ms CPU  %s\n", l.cpu_ms_by_query[order[k]],
                qs[order[k]].c_str());
}

// FTS5 / Strata, by CPU time (the machine is shared: wall-clock ratios carry its load).
void print_ratio(const char* what, const Latency& fts5, const Latency& strata) {
  std::printf("%s fts5 / strata CPU: mean %.2fx  p50 %.2fx  p99 %.2fx\n", what,
              fts5.cpu_mean_ms / strata.cpu_mean_ms, fts5.cpu_p50_ms / strata.cpu_p50_ms,
              fts5.cpu_p99_ms / strata.cpu_p99_ms);
}

// Strata as served, its parts (no facet, a date filter), and FTS5 on the same queries with
// safe search on both sides, then off on both sides (FTS5's safe filter is an AND with a
// word that 90 % of the documents hold, which costs FTS5 more than a filter costs Xapian).
void compare_in_process(const fs::path& dir, const fs::path& fts_file,
                        const std::vector<std::string>& qs, size_t slowest, bool as_served_only,
                        Report& report) {
  const Latency strata = in_process(dir, qs, nullptr);
  report.print("in-process strata (as served):", strata);
  print_slowest(strata, qs, slowest);
  if (as_served_only) return;
  report.print(
      "in-process strata, no years facet:",
      in_process(dir, qs, [](search::SearchRequest& r, size_t) { r.years_facet = false; }));
  report.print("in-process strata, date filter:", in_process(dir, qs, add_dates));
  const Latency uncollapsed =
      in_process(dir, qs, [](search::SearchRequest& r, size_t) { r.collapse = false; });
  report.print("in-process strata, collapse off:", uncollapsed);
  std::printf("collapse cost (as served - collapse off), CPU: p50 %+.3f ms  p99 %+.3f ms\n",
              strata.cpu_p50_ms - uncollapsed.cpu_p50_ms,
              strata.cpu_p99_ms - uncollapsed.cpu_p99_ms);
  const Latency unsafe =
      in_process(dir, qs, [](search::SearchRequest& r, size_t) { r.safe = false; });
  report.print("in-process strata, safe search off:", unsafe);
  if (fts_file.empty()) return;
  Fts5 fts(fts_file.string());
  auto fts5 = [&](bool safe) {
    return run_load(qs.size(), 1,
                    [&](size_t i, int) -> size_t { return fts.search(qs[i], 50, safe); });
  };
  const Latency sqlite = fts5(true);
  report.print("in-process fts5, safe search:", sqlite);
  const Latency sqlite_unsafe = fts5(false);
  report.print("in-process fts5, safe search off:", sqlite_unsafe);
  print_ratio("safe search on: ", sqlite, strata);
  print_ratio("safe search off:", sqlite_unsafe, unsafe);
}

void compare_quality(const Config& c, const fs::path& dir) {
  if (!fs::exists(dir / "truth" / "queries.jsonl")) {
    sample::Options options;
    options.seed = c.seed;
    if (!sample::apply_scale(c.sample_scale, options)) throw std::runtime_error("bad scale");
    sample::generate(options, dir.string());
  }
  const fs::path index_dir = dir / "index";
  std::printf("quality bm25f: %s\n", describe(evaluate(dir, index_dir)).c_str());
}

}  // namespace

int main(int argc, char** argv) {
  Config c;
  CLI::App app{"Search benchmark: index build, size, latency vs SQLite FTS5, ranking quality"};
  app.add_option("--docs", c.docs, "documents in the sample index");
  app.add_option("--work", c.work, "where the indexes are kept");
  app.add_option("--queries", c.queries, "query log, one query per line");
  app.add_option("--subset", c.subset, "queries for the in-process comparisons (0 = all)");
  app.add_option("--http-queries", c.http_queries, "queries through HTTP (0 = all)");
  app.add_option("--sample-scale", c.sample_scale, "scale of the judged sample archive");
  app.add_flag("--new-connections", c.new_connections, "one TCP connection per HTTP query");
  app.add_flag("--compact", c.compact, "also report the size of a compacted copy");
  app.add_flag("--reuse", c.reuse, "keep existing indexes of the same size");
  app.add_flag("--build-only", c.build_only, "stop after building (and compacting) the index");
  app.add_option("--slowest", c.slowest, "print the N slowest queries in process");
  app.add_option("--hits", c.hits_file, "write each in-process query's answer to FILE");
  app.add_flag("--in-process-only", c.in_process_only,
               "stop after the in-process comparison (for profiling)");
  app.add_flag("--as-served-only", c.as_served_only,
               "in process, only Strata as served, then stop (for profiling)");
  app.add_option("--seed", c.seed, "generator seed");
  app.add_option("--batch", c.batch, "documents per index transaction");
  app.add_flag("!--no-fts5", c.fts5, "skip SQLite FTS5 (its build and comparison)");
  app.add_option("--jobs", c.jobs, "index shards built in parallel threads, then merged");
  CLI11_PARSE(app, argc, argv);

  const std::vector<std::string> queries = read_queries(c.queries);
  if (queries.empty()) {
    std::fprintf(stderr, "no queries in %s\n", c.queries.c_str());
    return 1;
  }
  const Corpus corpus(queries, c.seed);
  const std::string n = std::to_string(c.docs);
  const fs::path dir = fs::path(c.work) / ("index-" + n);
  const fs::path fts_file = c.fts5 ? fs::path(c.work) / ("fts5-" + n + ".sqlite") : fs::path();
  std::printf("%llu documents, vocabulary %zu query-log words, %zu queries\n",
              static_cast<unsigned long long>(c.docs), corpus.vocabulary_size(), queries.size());
  fs::create_directories(c.work);
  if (!c.reuse || !fs::exists(dir)) {
    fs::remove_all(dir);
    build_xapian(dir, c.docs, c, corpus);
    if (c.compact) report_compacted(dir, c.docs, " before near-duplicate groups");
    group_near_duplicates(dir, c.docs, c.jobs);
  }
  if (c.compact) report_compacted(dir, c.docs);
  if (c.build_only) return 0;
  if (c.fts5 && (!c.reuse || !fs::exists(fts_file))) {
    fs::remove(fts_file);
    build_fts5(fts_file, c.docs, corpus);
  }
  Report report;
  {
    const double cpu0 = process_cpu_seconds();
    const Xapian::Database db(dir.string());
    search::capture_years_of(db, false);
    search::group_members_of(db, false);
    std::printf("match spies' tables: %.0f ms CPU to read (once per index revision)\n",
                (process_cpu_seconds() - cpu0) * 1e3);
  }
  if (!c.hits_file.empty()) write_hits(dir, every_kth(queries, c.subset), c.hits_file);
  compare_in_process(dir, fts_file, every_kth(queries, c.subset), c.slowest, c.as_served_only,
                     report);
  if (c.in_process_only || c.as_served_only) return report.exit_code();
  run_http(dir, every_kth(queries, c.http_queries), !c.new_connections, report);
  compare_quality(c, fs::path(c.work) / ("sample-" + c.sample_scale));
  return report.exit_code();
}
