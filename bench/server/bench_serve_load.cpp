// bench_serve_load: `strata serve` binaries under many and slow clients, on loopback only,
// bounded in time. For each --server NAME=BINARY: index the archive with that binary
// (--no-analysis), start `BINARY serve`, then
//   1. long query: a 2 KB query of one repeated word against the word once;
//   2. keep-alive: --clients connections, each sending /imagesearch queries one after the
//      other (--think-ms between them) for --seconds: errors and latency percentiles;
//   3. slowloris: --slowloris connections held open by sending a header line every 2 s (and
//      reopened when the server closes them), while a normal client opens a fresh connection
//      for one query every 200 ms for --probe-seconds: failures and latency.
// With --remote-shards N each server runs a second time over the archive indexed as N shards
// (`strata index --shards N`), each served by xapian-tcpsrv on loopback and searched through
// `strata serve --shard HOST:PORT ...` (docs/scale.md): the same loads over HTTP.
// Clients use source addresses 127.0.0.1-8 (keep-alive) and 127.0.0.20-23 (slowloris), as
// distinct machines would. Usage:
//   bench_serve_load --archive example.warc.gz --work DIR --server beast=build/apps/strata/strata
//                    --server httplib=BASELINE/build/apps/strata/strata  (a build of the baseline)
// Exits 1 when a server answers none of the queries with a result.
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "tcpsrv.hpp"  // tests/shard: xapian-tcpsrv on a loopback port

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

// Words of the 2008 archive.org crawl's alt texts and page titles.
const std::vector<std::string> kQueries = {"archive", "internet", "logo",      "movies", "audio",
                                           "texts",   "software", "education", "web",    "library"};

int connect_from(const std::string& source, int port, int timeout_ms) {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in from{}, to{};
  from.sin_family = to.sin_family = AF_INET;
  inet_pton(AF_INET, source.c_str(), &from.sin_addr);
  to.sin_port = htons(static_cast<uint16_t>(port));
  to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  timeval tv{timeout_ms / 1000, (timeout_ms % 1000) * 1000};
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  ::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
  int one = 1;
  ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  if (::bind(fd, reinterpret_cast<sockaddr*>(&from), sizeof from) != 0 ||
      ::connect(fd, reinterpret_cast<sockaddr*>(&to), sizeof to) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

// One request on `fd`; the reply's status and body, status 0 on a failure (closed, timeout).
struct Answer {
  int status = 0;
  std::string body;
};
Answer ask(int fd, const std::string& target) {
  std::string req = "GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
  if (::send(fd, req.data(), req.size(), MSG_NOSIGNAL) != static_cast<ssize_t>(req.size()))
    return {};
  std::string in;
  char buf[16384];
  size_t head_end = std::string::npos, length = 0;
  while (head_end == std::string::npos || in.size() < head_end + 4 + length) {
    ssize_t n = ::recv(fd, buf, sizeof buf, 0);
    if (n <= 0) return {};
    in.append(buf, n);
    if (head_end == std::string::npos && (head_end = in.find("\r\n\r\n")) != std::string::npos) {
      std::string head = in.substr(0, head_end);
      std::transform(head.begin(), head.end(), head.begin(), ::tolower);
      size_t cl = head.find("content-length:");
      if (cl == std::string::npos) return {};
      length = std::stoul(head.substr(cl + 15));
    }
  }
  if (in.size() < 12) return {};
  return {std::stoi(in.substr(9, 3)), in.substr(head_end + 4, length)};
}

std::string query_target(size_t i) {
  return "/imagesearch?safeSearch=off&maxItems=20&q=" + kQueries[i % kQueries.size()];
}

struct Latencies {
  std::mutex mutex;
  std::vector<double> ms;
  std::atomic<size_t> errors{0};
  void add(double v) {
    std::lock_guard lock(mutex);
    ms.push_back(v);
  }
  std::string describe() {
    std::lock_guard lock(mutex);
    std::sort(ms.begin(), ms.end());
    auto pct = [&](double p) { return ms.empty() ? 0.0 : ms[size_t(p * double(ms.size() - 1))]; };
    size_t slow = ms.end() - std::upper_bound(ms.begin(), ms.end(), 100.0);
    char out[200];
    std::snprintf(out, sizeof out,
                  "%zu answers, %zu errors, %zu over 100 ms, p50 %.1f ms, p99 %.1f ms, max %.1f ms",
                  ms.size(), errors.load(), slow, pct(0.5), pct(0.99),
                  ms.empty() ? 0.0 : ms.back());
    return out;
  }
};

double since_ms(Clock::time_point t) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}

void keep_alive_load(int port, int clients, int seconds, int think_ms) {
  Latencies lat;
  std::atomic<int> first_late{0};
  const auto end = Clock::now() + std::chrono::seconds(seconds);
  std::vector<std::thread> threads;
  for (int c = 0; c < clients; ++c)
    threads.emplace_back([&, c] {
      const std::string source = "127.0.0." + std::to_string(1 + c % 8);
      int fd = -1;
      bool first = true;
      for (size_t i = c; Clock::now() < end; i += clients) {
        auto t0 = Clock::now();
        if (fd < 0) fd = connect_from(source, port, 10000);
        Answer a = fd < 0 ? Answer{} : ask(fd, query_target(i));
        double ms = since_ms(t0);
        if (a.status != 200) {
          ++lat.errors;
          if (fd >= 0) ::close(fd);
          fd = -1;
        } else {
          lat.add(ms);
        }
        if (first && ms > 1000) ++first_late;
        first = false;
        std::this_thread::sleep_for(milliseconds(think_ms));
      }
      if (fd >= 0) ::close(fd);
    });
  for (auto& t : threads) t.join();
  std::printf("  keep-alive, %d clients, %d s, think %d ms: %s; %d first answers after 1 s\n",
              clients, seconds, think_ms, lat.describe().c_str(), first_late.load());
}

void slowloris_probe(int port, int held, int seconds) {
  std::atomic<bool> done{false};
  std::array<std::atomic<int>, 4> open_now{};  // per attacker, after its last round
  std::vector<std::thread> attackers;
  for (int a = 0; a < 4; ++a)  // four attacking addresses, held/4 connections each
    attackers.emplace_back([&, a] {
      const std::string source = "127.0.0." + std::to_string(20 + a);
      std::vector<int> fds(held / 4, -1);
      while (!done) {
        int alive = 0;
        for (int& fd : fds) {
          if (fd < 0 && (fd = connect_from(source, port, 2000)) >= 0) {
            std::string start = "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n";
            if (::send(fd, start.data(), start.size(), MSG_NOSIGNAL) < 0) fd = (::close(fd), -1);
          } else if (fd >= 0 && ::send(fd, "X-a: b\r\n", 8, MSG_NOSIGNAL) != 8) {
            fd = (::close(fd), -1);
          }
          alive += fd >= 0;
        }
        open_now[a] = alive;
        for (int i = 0; i < 20 && !done; ++i) std::this_thread::sleep_for(milliseconds(100));
      }
      for (int fd : fds)
        if (fd >= 0) ::close(fd);
    });
  std::this_thread::sleep_for(std::chrono::seconds(3));  // let them settle in
  Latencies lat;
  double open_sum = 0;
  int samples = 0;
  for (auto end = Clock::now() + std::chrono::seconds(seconds); Clock::now() < end;) {
    int now = 0;
    for (const auto& n : open_now) now += n;
    open_sum += now, ++samples;
    auto t0 = Clock::now();
    int fd = connect_from("127.0.0.1", port, 5000);
    Answer a = fd < 0 ? Answer{} : ask(fd, query_target(0));
    if (fd >= 0) ::close(fd);
    if (a.status == 200)
      lat.add(since_ms(t0));
    else
      ++lat.errors;
    std::this_thread::sleep_for(milliseconds(200));
  }
  done = true;
  for (auto& t : attackers) t.join();
  std::printf(
      "  slowloris, %d attacking (%.0f open on average), fresh-connection probe for %d s: %s\n",
      held, samples ? open_sum / samples : 0.0, seconds, lat.describe().c_str());
}

// A 2 KB query of one word repeated 512 times against the word once, 200 sequential
// keep-alive requests each: what a cost bound on long queries is for.
void long_query_cost(int port) {
  auto mean_ms = [port](const std::string& q) {
    int fd = connect_from("127.0.0.1", port, 5000);
    auto t0 = Clock::now();
    int ok = 0;
    for (int i = 0; i < 200 && fd >= 0; ++i)
      ok += ask(fd, "/imagesearch?safeSearch=off&maxItems=20&q=" + q).status == 200;
    double ms = since_ms(t0) / 200;
    if (fd >= 0) ::close(fd);
    return ok == 200 ? ms : -1.0;
  };
  std::string repeated = "web";
  for (int i = 1; i < 512; ++i) repeated += "+web";
  double one = mean_ms("web"), many = mean_ms(repeated);
  std::printf("  long query: one word %.2f ms, 512 x the word (2047 bytes) %.2f ms: %.1fx\n", one,
              many, one > 0 ? many / one : 0.0);
}

int run(const std::vector<std::string>& argv) {
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  posix_spawn_file_actions_t quiet;  // the children's reports would bury the figures
  posix_spawn_file_actions_init(&quiet);
  posix_spawn_file_actions_addopen(&quiet, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&quiet, 2, "/dev/null", O_WRONLY, 0);
  pid_t pid;
  int failed = posix_spawn(&pid, args[0], &quiet, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&quiet);
  return failed ? -1 : pid;
}

int free_port() {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in at{};
  at.sin_family = AF_INET;
  at.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof at;
  ::bind(fd, reinterpret_cast<sockaddr*>(&at), sizeof at);
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&at), &len);
  ::close(fd);
  return ntohs(at.sin_port);
}

bool wait_healthy(int port) {
  for (int i = 0; i < 100; ++i) {
    int fd = connect_from("127.0.0.1", port, 1000);
    if (fd >= 0) {
      Answer a = ask(fd, "/imagesearch/healthcheck");
      ::close(fd);
      if (a.status == 200) return true;
    }
    std::this_thread::sleep_for(milliseconds(100));
  }
  return false;
}

// Prints each query's totalItems; returns their sum (a load of empty answers measures nothing).
uint64_t print_hits(int port) {
  int fd = connect_from("127.0.0.1", port, 5000);
  std::printf("  hits per query:");
  uint64_t sum = 0;
  for (size_t i = 0; i < kQueries.size() && fd >= 0; ++i) {
    Answer a = ask(fd, query_target(i) + "&fields=imgSrc");
    size_t at = a.body.find("\"totalItems\":");
    uint64_t hits =
        at == std::string::npos ? 0 : std::strtoull(a.body.c_str() + at + 13, nullptr, 10);
    sum += hits;
    std::printf(" %s=%llu", kQueries[i].c_str(), static_cast<unsigned long long>(hits));
  }
  std::printf("\n");
  if (fd >= 0) ::close(fd);
  return sum;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"strata serve under many keep-alive and slowloris clients (loopback)"};
  std::vector<std::string> servers;
  std::string archive, work = "bench-serve-load";
  int clients = 256, seconds = 60, think_ms = 100, held = 200, probe_seconds = 20;
  size_t remote_shards = 0;
  app.add_option("--server", servers, "NAME=STRATA_BINARY (repeatable)")->required();
  app.add_option("--archive", archive, "Archive to index and query")->required();
  app.add_option("--work", work, "Folder for the indexes");
  app.add_option("--clients", clients, "Keep-alive clients (default 256)");
  app.add_option("--seconds", seconds, "Keep-alive load duration (default 60)");
  app.add_option("--think-ms", think_ms, "Pause of each client between queries (default 100)");
  app.add_option("--slowloris", held, "Slowloris connections (default 200)");
  app.add_option("--probe-seconds", probe_seconds, "Slowloris probe duration (default 20)");
  app.add_option("--remote-shards", remote_shards,
                 "Also serve each binary over N xapian-tcpsrv shards (0: not)");
  CLI11_PARSE(app, argc, argv);
  for (const auto& spec : servers) {
    const std::string name = spec.substr(0, spec.find('=')), bin = spec.substr(spec.find('=') + 1);
    for (const size_t shards : {size_t{0}, remote_shards}) {
      const std::string what = shards ? name + " over " + std::to_string(shards) + " shards" : name;
      const fs::path index = fs::path(work) / (what + "-index");
      fs::remove_all(index);
      std::vector<std::string> indexing{
          bin,      "index", "--index", index.string(), "--collection", "aut", "--no-analysis",
          "--jobs", "1",     archive};
      if (shards) indexing.insert(indexing.end(), {"--shards", std::to_string(shards)});
      int status = 0;
      waitpid(run(indexing), &status, 0);
      const int port = free_port();
      std::vector<std::string> serving{bin, "serve", "--port", std::to_string(port)};
      std::vector<std::unique_ptr<strata::shard::testing::Tcpsrv>> tcpsrv;
      for (size_t k = 0; k < shards; ++k) {
        tcpsrv.push_back(std::make_unique<strata::shard::testing::Tcpsrv>(
            index / ("shard-" + std::to_string(k))));
        serving.insert(serving.end(), {"--shard", tcpsrv.back()->address()});
      }
      if (!shards) serving.insert(serving.end(), {"--index", index.string()});
      const int pid = run(serving);
      std::printf("%s (%s), port %d\n", what.c_str(), bin.c_str(), port);
      if (pid < 0 || !wait_healthy(port)) {
        std::printf("  server did not start\n");
        return 1;
      }
      if (print_hits(port) == 0) {
        std::printf("  FAILED: no query returned a result\n");
        kill(pid, SIGTERM);
        waitpid(pid, &status, 0);
        return 1;
      }
      long_query_cost(port);
      keep_alive_load(port, clients, seconds, think_ms);
      if (held > 0 && !shards) {  // the HTTP server's own defence: the same over shards
        std::this_thread::sleep_for(std::chrono::seconds(6));  // idle connections expire
        slowloris_probe(port, held, probe_seconds);
      }
      kill(pid, SIGTERM);
      waitpid(pid, &status, 0);
      std::fflush(stdout);
      if (!remote_shards) break;
    }
  }
  return 0;
}
