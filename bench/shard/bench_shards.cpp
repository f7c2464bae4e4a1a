// bench_shards [--docs N] [--shards K] [--work DIR] [--queries FILE] [--subset N] [--clients N]
//              [--jobs N] [--reuse] [--one-from-shards] [--pool N]
// Search over K shards against one index of the same N documents (docs/scale.md, issue 26):
// the bench_search corpus (bench/search/corpus.hpp) indexed once as one index and once as K
// shards partitioned by digest (shard::shard_of, as `strata index --shards K`), near-duplicate
// groups computed over all the shards at once; with --one-from-shards the one index is not
// built but merged from the shards (index::compact_index of the shard folders: the same
// documents, groups and stored data, in half the build time). The same queries (every k-th of the
// real Arquivo log, as served: safe search, totals, years facet, phrase boosts, collapse) then run
//   - over the one index;
//   - over the K shard folders combined in process (shard::ShardSet of local folders);
//   - over K xapian-tcpsrv processes on loopback (Xapian's remote backend), the servers' CPU
//     read from /proc and given per query beside the querying thread's;
//   - with --clients N: N clients at once over the one index and over the remote shards (each
//     client thread with its own connections; with --pool M also through M pooled connections
//     a shard, ShardOptions::max_connections);
//   - over the remote shards with one server killed: the answers from the others, flagged.
// Each line gives wall and CPU p50/p99 and hits per query; the run exits 1 when a load returned
// nothing. docs/BENCHMARKS.md, "Search over shards".
#include <sys/resource.h>
#include <unistd.h>
#include <CLI/CLI.hpp>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <sstream>

#include "corpus.hpp"
#include "index/compact.hpp"
#include "index/schema.hpp"
#include "index/shard_layout.hpp"
#include "index/sharded_build.hpp"
#include "index/writer.hpp"
#include "load.hpp"
#include "search/searcher.hpp"
#include "shard/partition.hpp"
#include "shard/shard_set.hpp"
#include "tcpsrv.hpp"  // tests/shard: xapian-tcpsrv on a loopback port

using namespace strata;
using namespace strata::bench;
namespace fs = std::filesystem;

namespace {

struct Config {
  uint64_t docs = 100'000;
  size_t shards = 4;
  std::string work = "/tmp/strata-bench-shards";
  std::string queries = "../shared/data/arquivo/queries-pt-2word.txt";
  size_t subset = 1000;
  int clients = 0;
  unsigned jobs = 1;
  bool reuse = false;
  bool one_from_shards = false;
  size_t pool = 0;
  uint64_t seed = 1;
};

// CPU seconds of the connection processes of the xapian-tcpsrv whose process group is `pgid`
// (it forks one a connection; the server does not keep the times of those that ended).
double connections_cpu_seconds(pid_t pgid) {
  const double tick = static_cast<double>(sysconf(_SC_CLK_TCK));
  double sum = 0;
  for (const auto& entry : fs::directory_iterator("/proc")) {
    const std::string name = entry.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos || std::stol(name) == pgid)
      continue;
    std::ifstream in(entry.path() / "stat");
    std::string stat;
    if (!std::getline(in, stat)) continue;
    const size_t close = stat.rfind(')');
    if (close == std::string::npos) continue;
    // After "(comm)": state ppid pgrp ... utime (the 14th field) stime.
    std::istringstream fields(stat.substr(close + 2));
    std::vector<std::string> f;
    for (std::string x; f.size() < 13 && fields >> x;) f.push_back(x);
    if (f.size() == 13 && std::stol(f[2]) == pgid) sum += std::stod(f[11]) + std::stod(f[12]);
  }
  return sum / tick;
}

void report_build(const char* what, const fs::path& dir, uint64_t n, double wall, double cpu) {
  uint64_t bytes = 0;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.is_regular_file()) bytes += e.file_size();
  std::printf("%s build: %llu docs in %.0f s, CPU %.0f s = %.3f ms/doc; %.0f bytes/doc\n", what,
              static_cast<unsigned long long>(n), wall, cpu, cpu * 1e3 / static_cast<double>(n),
              static_cast<double>(bytes) / static_cast<double>(n));
  std::fflush(stdout);
}

index::ShardedBuild build_options(const Config& c, const Corpus& corpus) {
  index::ShardedBuild options;
  options.jobs = c.jobs;
  options.moderate = [&corpus](const merge::ImageDocument& d, index::Moderation& m) {
    m = corpus.moderation(d);
  };
  return options;
}

// Documents [0, n) as one index, near-duplicate groups included (as bench_search builds it).
void build_one(const fs::path& dir, const Config& c, const Corpus& corpus) {
  const auto t0 = std::chrono::steady_clock::now();
  const double cpu0 = process_cpu_seconds();
  index::build_sharded(
      dir, c.docs, [&](uint64_t i) { return corpus.document(i); }, build_options(c, corpus));
  index::IndexWriter writer(dir);
  writer.begin();
  writer.regroup_near_duplicates(c.jobs);
  writer.commit();
  report_build("one index", dir, c.docs,
               std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(),
               process_cpu_seconds() - cpu0);
}

// Documents [0, n) as the shard folders of a sharded index (index/shard_layout.hpp), each in
// the shard of its digest, not yet grouped.
void build_shard_folders(const fs::path& root, const Config& c, const Corpus& corpus) {
  std::vector<std::vector<uint64_t>> members(c.shards);
  for (uint64_t i = 0; i < c.docs; ++i)
    members[shard::shard_of(corpus.document(i).imgDigest, c.shards)].push_back(i);
  fs::create_directories(root);
  // One stored-data dictionary for all (trained on the first shard's documents), so that the
  // shards can be merged into one index (--one-from-shards).
  index::ShardedBuild options = build_options(c, corpus);
  for (size_t k = 0; k < c.shards; ++k) {
    index::build_sharded(
        index::shard_folder(root, k), members[k].size(),
        [&](uint64_t j) { return corpus.document(members[k][j]); }, options);
    if (k == 0)
      options.dictionary = Xapian::Database(index::shard_folder(root, 0).string())
                               .get_metadata(std::string(index::kMetaDictionary));
  }
}

// Whether `root` holds all the shard folders of the N documents: a run stopped after building
// them (their regroup is long at 10M) goes on with --reuse from the regroup.
bool have_shard_folders(const fs::path& root, const Config& c) {
  uint64_t documents = 0;
  for (size_t k = 0; k < c.shards; ++k) {
    const fs::path folder = index::shard_folder(root, k);
    if (!fs::exists(folder / "iamglass")) return false;
    documents += Xapian::Database(folder.string()).get_doccount();
  }
  return documents == c.docs;
}

// Near-duplicate groups computed over all the shards at once (index::regroup_over_shards); the
// `shards` file, written last, marks the sharded index complete.
void group_shards(const fs::path& root, const Config& c) {
  std::vector<std::unique_ptr<index::IndexWriter>> writers;
  std::vector<Xapian::WritableDatabase> databases;
  for (size_t k = 0; k < c.shards; ++k) {
    writers.push_back(std::make_unique<index::IndexWriter>(index::shard_folder(root, k)));
    writers.back()->begin();
    databases.push_back(writers.back()->database());
  }
  index::regroup_over_shards(databases, c.jobs);
  for (auto& writer : writers) writer->commit();
  if (!index::write_shard_count(root, c.shards)) throw std::runtime_error("cannot write shards");
}

// The same documents as a sharded index, grouped; with --reuse, from what a stopped run left.
void build_shards(const fs::path& root, const Config& c, const Corpus& corpus) {
  const auto t0 = std::chrono::steady_clock::now();
  const double cpu0 = process_cpu_seconds();
  const bool built = c.reuse && have_shard_folders(root, c);
  if (!built) {
    fs::remove_all(root);
    build_shard_folders(root, c, corpus);
  }
  group_shards(root, c);
  report_build((std::to_string(c.shards) + " shards" + (built ? " (grouped only)" : "")).c_str(),
               root, c.docs,
               std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(),
               process_cpu_seconds() - cpu0);
}

// The one index merged from the shards: their tables compacted into one, docids renumbered.
void merge_shards(const fs::path& root, const fs::path& dir, const Config& c) {
  const auto t0 = std::chrono::steady_clock::now();
  const double cpu0 = process_cpu_seconds();
  index::compact_index(root, dir);  // a sharded index's shards, merged
  report_build("one index (merged from the shards)", dir, c.docs,
               std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(),
               process_cpu_seconds() - cpu0);
}

// What a query returned: its total and its page's ids, in order.
std::string answer(const search::SearchResult& r) {
  std::string out = std::to_string(r.total);
  for (const auto& hit : r.hits) out += ' ' + hit.doc.id;
  return out;
}

class Bench {
 public:
  explicit Bench(std::vector<std::string> qs) : qs_(std::move(qs)) {}

  // The queries as served over one index, `clients` at once (a database each).
  Latency over_one(const fs::path& dir, int clients, std::vector<std::string>* answers) {
    std::vector<Xapian::Database> dbs;
    for (int k = 0; k < clients; ++k) dbs.emplace_back(dir.string());
    return run_load(qs_.size(), clients, [&](size_t i, int client) {
      search::SearchRequest r;
      r.q = qs_[i];
      const search::SearchResult res = search::search(dbs[static_cast<size_t>(client)], r);
      if (answers) (*answers)[i] = answer(res);
      return res.hits.size();
    });
  }

  // The same over a ShardSet; `missing`: answers that left a shard out. `after_last` runs in
  // the thread of the last query (its connections still open), after it.
  Latency over_shards(shard::ShardSet& shards, int clients, std::vector<std::string>* answers,
                      size_t* missing, const std::function<void()>& after_last = nullptr) {
    std::atomic<size_t> left_out{0};
    Latency l = run_load(qs_.size(), clients, [&](size_t i, int) {
      search::SearchRequest r;
      r.q = qs_[i];
      search::SearchResult res;
      const shard::Coverage coverage =
          shards.run([&](Xapian::Database& db, const search::IndexParts& parts) {
            res = search::search(db, parts, r);
          });
      left_out += !coverage.missing.empty();
      if (answers) (*answers)[i] = answer(res);
      if (after_last && i + 1 == qs_.size()) after_last();
      return res.hits.size();
    });
    if (missing) *missing = left_out;
    return l;
  }

  void print(const std::string& what, const Latency& l, bool with_cpu = true) {
    std::printf("%-40s %s\n", what.c_str(), describe(l, with_cpu).c_str());
    std::fflush(stdout);
    if (returned_nothing(l)) empty_.push_back(what);
  }

  // Queries whose total and page are the same in both.
  size_t same(const std::vector<std::string>& a, const std::vector<std::string>& b) const {
    size_t n = 0;
    for (size_t i = 0; i < a.size(); ++i) n += a[i] == b[i];
    return n;
  }

  // How the first `shown` answers that differ differ: the total, or the page's ids.
  void show_differences(const std::vector<std::string>& a, const std::vector<std::string>& b,
                        size_t shown = 3) const {
    size_t totals = 0, pages = 0;
    for (size_t i = 0; i < a.size(); ++i) {
      if (a[i] == b[i]) continue;
      const size_t a_ids = a[i].find(' '), b_ids = b[i].find(' ');
      const bool same_page =
          a[i].substr(std::min(a_ids, a[i].size())) == b[i].substr(std::min(b_ids, b[i].size()));
      ++(same_page ? totals : pages);
      if (totals + pages <= shown)
        std::printf("  differs, %s: \"%s\": total %s against %s\n", same_page ? "total" : "page",
                    qs_[i].c_str(), a[i].substr(0, a_ids).c_str(), b[i].substr(0, b_ids).c_str());
    }
    std::printf("  of those that differ: %zu by the total only, %zu by the page\n", totals, pages);
  }

  size_t queries() const { return qs_.size(); }

  int exit_code() const {
    for (const auto& what : empty_) std::printf("FAILED: %s returned no result\n", what.c_str());
    return empty_.empty() ? 0 : 1;
  }

 private:
  std::vector<std::string> qs_;
  std::vector<std::string> empty_;
};

int run(const Config& c) {
  if (!shard::testing::have_tcpsrv()) {
    std::printf("skipped: %s not found (apt-get install xapian-tools)\n", shard::testing::kTcpsrv);
    return 77;
  }
  const std::vector<std::string> all = read_queries(c.queries);
  if (all.empty()) {
    std::fprintf(stderr, "no queries in %s\n", c.queries.c_str());
    return 1;
  }
  const Corpus corpus(all, c.seed);
  const std::string n = std::to_string(c.docs);
  const fs::path one = fs::path(c.work) / ("one-" + n);
  const fs::path sharded = fs::path(c.work) / ("shards-" + std::to_string(c.shards) + "-" + n);
  std::printf("%llu documents, %zu shards, %zu queries of %zu; load average at start: ",
              static_cast<unsigned long long>(c.docs), c.shards, std::min(c.subset, all.size()),
              all.size());
  std::fflush(stdout);
  std::system("cut -d' ' -f1-3 /proc/loadavg");
  fs::create_directories(c.work);
  if (!c.reuse || !fs::exists(one)) {
    fs::remove_all(one);
    if (!c.one_from_shards) build_one(one, c, corpus);
  }
  if (!c.reuse || index::shard_count(sharded) != c.shards) build_shards(sharded, c, corpus);
  if (!fs::exists(one)) merge_shards(sharded, one, c);

  Bench bench(every_kth(all, c.subset));
  const size_t nq = bench.queries();
  std::vector<std::string> one_answers(nq), local_answers(nq), remote_answers(nq);
  // One index, then the shards in process: alternated twice, the second round printed (the
  // first warms the page cache of both).
  std::vector<shard::ShardAddress> folders(c.shards);
  for (size_t k = 0; k < c.shards; ++k) folders[k].folder = index::shard_folder(sharded, k);
  shard::ShardSet local(folders);
  Latency l_one, l_local;
  for (int round = 0; round < 2; ++round) {
    l_one = bench.over_one(one, 1, &one_answers);
    l_local = bench.over_shards(local, 1, &local_answers, nullptr);
  }
  bench.print("one index, 1 client:", l_one);
  bench.print(std::to_string(c.shards) + " shard folders, in process:", l_local);

  std::vector<std::unique_ptr<shard::testing::Tcpsrv>> servers;
  std::vector<shard::ShardAddress> addresses;
  for (size_t k = 0; k < c.shards; ++k) {
    servers.push_back(std::make_unique<shard::testing::Tcpsrv>(index::shard_folder(sharded, k)));
    addresses.push_back(shard::parse_remote(servers.back()->address()));
  }
  shard::ShardSet remote(addresses);
  bench.over_shards(remote, 1, nullptr, nullptr);  // caches warm
  // A load's thread opens its own connections: their processes' CPU, read after its last
  // query, is the servers' share of that load.
  double servers_cpu = 0;
  const Latency l_remote = bench.over_shards(remote, 1, &remote_answers, nullptr, [&] {
    for (const auto& s : servers) servers_cpu += connections_cpu_seconds(s->pid());
  });
  const double remote_server_ms = servers_cpu * 1e3 / static_cast<double>(nq);
  bench.print(std::to_string(c.shards) + " xapian-tcpsrv shards, 1 client:", l_remote);
  std::printf("  servers' CPU %.2f ms per query (mean; client + servers %.2f ms)\n",
              remote_server_ms, l_remote.cpu_mean_ms + remote_server_ms);
  std::printf("same total and page as one index: %zu of %zu (shards in process), %zu (remote)\n",
              bench.same(one_answers, local_answers), nq, bench.same(one_answers, remote_answers));
  bench.show_differences(one_answers, remote_answers);

  if (c.clients > 1) {
    const std::string many = std::to_string(c.clients) + " clients:";
    double cpu0 = process_cpu_seconds();
    bench.print("one index, " + many, bench.over_one(one, c.clients, nullptr), false);
    std::printf("  process CPU %.2f ms per query\n",
                (process_cpu_seconds() - cpu0) * 1e3 / static_cast<double>(nq));
    cpu0 = process_cpu_seconds();
    size_t flagged = 0;
    bench.print(std::to_string(c.shards) + " tcpsrv shards, " + many,
                bench.over_shards(remote, c.clients, nullptr, &flagged), false);
    std::printf(
        "  process CPU %.2f ms per query (the servers' not counted); %zu answers flagged with a "
        "missing shard (ShardOptions' timeouts)\n",
        (process_cpu_seconds() - cpu0) * 1e3 / static_cast<double>(nq), flagged);
    if (c.pool) {
      shard::ShardOptions pooled_options;
      pooled_options.max_connections = c.pool;
      shard::ShardSet pooled(addresses, pooled_options);
      cpu0 = process_cpu_seconds();
      bench.print(std::to_string(c.shards) + " tcpsrv shards, " + many + " pool " +
                      std::to_string(c.pool) + ":",
                  bench.over_shards(pooled, c.clients, nullptr, &flagged), false);
      std::printf("  process CPU %.2f ms per query; %zu answers flagged\n",
                  (process_cpu_seconds() - cpu0) * 1e3 / static_cast<double>(nq), flagged);
    }
  }

  // A shard lost: its server killed; the first query finds it refused and runs again over the
  // others, the next ones leave it out until retry_after (then one refused connection each).
  // A fresh set: none of the shards left out by an earlier load.
  shard::ShardSet lost(addresses);
  servers.back()->kill();
  size_t missing = 0;
  const Latency l_failed = bench.over_shards(lost, 1, nullptr, &missing);
  bench.print(std::to_string(c.shards) + " tcpsrv shards, one killed:", l_failed);
  std::printf("  %zu of %zu answers flagged with a missing shard\n", missing, nq);
  if (missing != nq) std::printf("FAILED: %zu answers not flagged\n", nq - missing);
  const int code = bench.exit_code();
  return code ? code : missing == nq ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  Config c;
  CLI::App app{"Search over shards (xapian-tcpsrv) against one index of the same documents"};
  app.add_option("--docs", c.docs, "documents in all");
  app.add_option("--shards", c.shards, "shards")->check(CLI::Range(1, 64));
  app.add_option("--work", c.work, "where the indexes are kept");
  app.add_option("--queries", c.queries, "query log, one query per line");
  app.add_option("--subset", c.subset, "queries run (every k-th of the log; 0 = all)");
  app.add_option("--clients", c.clients, "also run N clients at once (0: not)");
  app.add_option("--jobs", c.jobs, "threads building each index");
  app.add_option("--seed", c.seed, "generator seed");
  app.add_flag("--reuse", c.reuse,
               "keep indexes already built, and group shard folders a stopped run left");
  app.add_option("--pool", c.pool,
                 "with --clients: also run them through N pooled connections a shard (0: not)");
  app.add_flag("--one-from-shards", c.one_from_shards,
               "make the one index by merging the shards (compaction) instead of building it");
  CLI11_PARSE(app, argc, argv);
  return run(c);
}
