// bench_crawl [URLS=1000000] [HOSTS=10000] [SITES=20] [PAGES=50] [DELAY=0]
// 1. A frontier of URLS URLs over HOSTS hosts: resident memory and disk bytes per URL, CPU
//    seconds to add them all and to hand them all out (delays at zero).
// 2. A crawl of SITES loopback hosts × PAGES pages (each with two images) with politeness
//    delays at zero: fetches per second, i.e. the crawler's own overhead; with DELAY seconds
//    between fetches from a host, the rate against its ceiling SITES / DELAY.
#include <sys/resource.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <deque>
#include <fstream>
#include <string>
#include <unordered_set>

#include "crawl/crawler.hpp"
#include "crawl/frontier.hpp"
#include "crawl/test_web.hpp"

namespace {

double cpu_seconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

uint64_t resident_bytes() {
  std::ifstream statm("/proc/self/statm");
  uint64_t size = 0, resident = 0;
  statm >> size >> resident;
  return resident * static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
}

uint64_t anonymous_bytes() {  // resident memory that is not the LMDB file's page cache
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);)
    if (line.rfind("RssAnon:", 0) == 0) return std::stoull(line.substr(8)) * 1024;
  return resident_bytes();
}

uint64_t folder_bytes(const std::filesystem::path& dir) {
  uint64_t total = 0;
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir))
    if (e.is_regular_file()) total += e.file_size();
  return total;
}

std::string bench_url(uint64_t i, uint64_t hosts) {
  return "http://host" + std::to_string(i % hosts) + ".example.org/section/" +
         std::to_string(i / hosts) + "/page.html?id=" + std::to_string(i);
}

// The baseline: the naive in-memory frontier, every URL in a hash set and a queue.
void bench_in_memory(uint64_t urls, uint64_t hosts) {
  uint64_t before = anonymous_bytes();
  std::unordered_set<std::string> seen;
  std::deque<std::string> queue;
  for (uint64_t i = 0; i < urls; ++i) {
    std::string url = bench_url(i, hosts);
    if (seen.insert(url).second) queue.push_back(std::move(url));
  }
  std::printf("baseline: in-memory set + queue %.1f bytes/URL (anonymous RSS)\n",
              static_cast<double>(anonymous_bytes() - before) / static_cast<double>(urls));
}

void bench_frontier(uint64_t urls, uint64_t hosts, const std::filesystem::path& dir) {
  using namespace strata::crawl;
  UrlStore store(dir);
  Politeness zero{0, 0, 0, 0, 0, 0};
  Frontier frontier(store, zero, hosts);
  uint64_t anon_before = anonymous_bytes();
  double cpu0 = cpu_seconds();
  uint64_t added = 0;
  for (uint64_t i = 0; i < urls; ++i) {
    std::string url = bench_url(i, hosts);
    std::string host = politeness_host(url);
    added += frontier.add({url, "", 1, Lane::link, 0, 0}, host, seen_key(url));
  }
  double add_s = cpu_seconds() - cpu0;
  store.sync();
  uint64_t anon_after = anonymous_bytes();
  uint64_t disk = folder_bytes(dir);
  cpu0 = cpu_seconds();
  uint64_t handed = 0;
  while (auto ticket = frontier.next(1e9)) {
    frontier.done(*ticket, 1e9, 0);
    ++handed;
  }
  double drain_s = cpu_seconds() - cpu0;
  std::printf("frontier: %llu URLs added (%llu new) over %llu hosts, %llu handed out\n",
              static_cast<unsigned long long>(urls), static_cast<unsigned long long>(added),
              static_cast<unsigned long long>(hosts), static_cast<unsigned long long>(handed));
  std::printf(
      "frontier: memory %.1f bytes/URL (anonymous RSS), disk %.1f bytes/URL (state folder)\n",
      static_cast<double>(anon_after - anon_before) / static_cast<double>(urls),
      static_cast<double>(disk) / static_cast<double>(urls));
  std::printf("frontier: add %.0f URLs/s CPU, hand out + done %.0f URLs/s CPU\n",
              static_cast<double>(urls) / add_s, static_cast<double>(handed) / drain_s);
}

strata::testing::WebResponse page(const std::string& host, const std::string& path, int pages) {
  if (path == "/robots.txt") return {404, "text/plain", "", {}, 0};
  if (path.find(".png") != std::string::npos)
    return {200, "image/png", "\x89PNG fake " + host + path, {}, 0};
  int n = path == "/" ? 0 : std::atoi(path.c_str() + 2);
  std::string body = "<html><body><img src='/i" + std::to_string(n) + "a.png'><img src='/i" +
                     std::to_string(n) + "b.png'>";
  for (int k = 1; k <= 3; ++k)
    body += "<a href='/p/" + std::to_string((n + k) % pages) + "'>next</a>";
  return {200, "text/html", body + "</body></html>", {}, 0};
}

void bench_loopback(int sites, int pages, double delay_s, const std::filesystem::path& dir) {
  strata::testing::TestWeb web([pages](const std::string& host, const std::string& path, int) {
    std::string p = path.rfind("/p/", 0) == 0 ? "/p" + path.substr(3) : path;
    return page(host, p, pages);
  });
  strata::crawl::CrawlOptions o;
  for (int s = 0; s < sites; ++s) o.seeds.push_back("http://site" + std::to_string(s) + ".test/");
  o.out_dir = dir;
  o.max_depth = 1000;
  o.politeness = {0, delay_s, delay_s, 0, 0, 0};
  o.fetch.connect_to = {web.connect_to()};
  strata::ProblemLog problems;
  double cpu0 = cpu_seconds();
  auto report = strata::crawl::run_crawl(o, problems);
  double cpu = cpu_seconds() - cpu0;
  auto fetches = static_cast<double>(report.counters.get("fetches"));
  std::printf(
      "loopback: %d hosts, delay %.2f s, %.0f fetches (%lld responses, %lld revisits, %zu "
      "problems) in %.2f s wall, %.2f s CPU: %.0f fetches/s wall, %.0f fetches per CPU second\n",
      sites, delay_s, fetches, static_cast<long long>(report.counters.get("responses")),
      static_cast<long long>(report.counters.get("revisits")), problems.total(), report.seconds,
      cpu, fetches / report.seconds, fetches / cpu);
  if (delay_s > 0)
    std::printf("loopback: ceiling %.0f fetches/s (hosts / delay), reached %.0f %%\n",
                sites / delay_s, 100 * fetches / report.seconds / (sites / delay_s));
}

}  // namespace

int main(int argc, char** argv) {
  uint64_t urls = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 1000000;
  uint64_t hosts = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 10000;
  int sites = argc > 3 ? std::atoi(argv[3]) : 20;
  int pages = argc > 4 ? std::atoi(argv[4]) : 50;
  auto root = std::filesystem::temp_directory_path() / ("bench_crawl." + std::to_string(getpid()));
  bench_frontier(urls, hosts, root / "frontier");
  double delay_s = argc > 5 ? std::atof(argv[5]) : 0;
  bench_loopback(sites, pages, delay_s, root / "loopback");
  bench_in_memory(urls, hosts);  // last: its memory is not given back to the system
  std::filesystem::remove_all(root);
  return 0;
}
