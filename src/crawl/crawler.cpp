#include "crawl/crawler.hpp"

#include <curl/curl.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <thread>
#include <unordered_map>

#include "archive/http.hpp"
#include "crawl/links.hpp"
#include "crawl/robots.hpp"
#include "crawl/url_store.hpp"
#include "crawl/warc_output.hpp"
#include "similar/page_sketch.hpp"
#include "url/url.hpp"

namespace strata::crawl {
namespace {

constexpr double kMaxIdleWait_s = 0.2;  // the loop looks at stop requests this often
constexpr double kStopGrace_s = 5;      // transfers in flight may finish after a stop
constexpr uint64_t kMaxParsedBytes = 32ull << 20;
constexpr std::size_t kMaxNearDuplicatesListed = 1000;

bool contains_ignore_case(std::string_view haystack, std::string_view needle) {
  auto it =
      std::search(haystack.begin(), haystack.end(), needle.begin(), needle.end(),
                  [](char a, char b) { return std::tolower(static_cast<unsigned char>(a)) == b; });
  return it != haystack.end();
}

// The body as the server meant it: chunking and content codings undone where they parse.
std::string decoded_body(const FetchResult& r) {
  std::string body = r.body, decoded;
  if (contains_ignore_case(r.header("Transfer-Encoding"), "chunked") &&
      archive::dechunk(body, decoded) != archive::DechunkResult::invalid)
    body.swap(decoded);
  std::string encodings = r.header("Content-Encoding");
  decoded.clear();
  if (!encodings.empty() && archive::decode_content(encodings, body, decoded, kMaxParsedBytes) ==
                                archive::DecodeResult::ok)
    body.swap(decoded);
  return body;
}

bool is_html(const FetchResult& r) {
  std::string type = r.header("Content-Type");
  return contains_ignore_case(type, "text/html") || contains_ignore_case(type, "application/xhtml");
}

// Retry-After: delay-seconds or an HTTP-date; nullopt when absent or unreadable.
std::optional<double> retry_after_s(const FetchResult& r, double now_epoch) {
  std::string value = r.header("Retry-After");
  if (value.empty()) return std::nullopt;
  if (value.find_first_not_of("0123456789") == std::string::npos) return std::stod(value);
  time_t when = curl_getdate(value.c_str(), nullptr);
  if (when < 0) return std::nullopt;
  return std::max(0.0, static_cast<double>(when) - now_epoch);
}

std::string robots_url(std::string_view url) {
  std::size_t authority = url.find("://");
  std::size_t end =
      url.find_first_of("/?#", authority == std::string_view::npos ? 0 : authority + 3);
  return std::string(url.substr(0, end)) + "/robots.txt";
}

struct RobotsState {
  bool known = false;
  RobotsTxt rules;
  double fetched_at = 0;
};

struct Pending {
  Ticket ticket;
  bool robots = false;
};

class Crawl {
 public:
  Crawl(const CrawlOptions& options, ProblemLog& problems)
      : o_(options),
        problems_(problems),
        store_(options.out_dir / "state"),
        frontier_(store_, options.politeness, options.max_back_queues),
        fetcher_(fetch_options(options)),
        warc_(warc_options(options), store_),
        scope_(options.scope),
        start_(std::chrono::steady_clock::now()) {}

  CrawlReport run() {
    seed_or_resume();
    double last_progress = 0, stop_at = 0;
    while (true) {
      if (!report_.stopped && o_.stop_requested && o_.stop_requested()) {
        report_.stopped = true;
        stop_at = now();
      }
      if (!report_.stopped) start_ready();
      if (fetcher_.active() == 0) {
        if (report_.stopped || frontier_.queued() == 0 || limit_reached()) break;
        double wait = std::clamp(frontier_.next_ready_time() - now(), 0.0, kMaxIdleWait_s);
        std::this_thread::sleep_for(std::chrono::duration<double>(wait));
        continue;
      }
      if (report_.stopped && now() - stop_at > kStopGrace_s) break;
      double wait = std::clamp(frontier_.next_ready_time() - now(), 0.0, kMaxIdleWait_s);
      for (FetchResult& result : fetcher_.poll(wait)) finish(std::move(result));
      if (o_.on_progress && now() - last_progress >= 1) {
        last_progress = now();
        o_.on_progress(progress_line());
      }
    }
    store_.sync();
    report_.warcs = warc_.files();
    report_.queued_left = store_.queued_count();
    report_.seconds = now();
    return std::move(report_);
  }

 private:
  static FetchOptions fetch_options(const CrawlOptions& o) {
    FetchOptions f = o.fetch;
    if (f.user_agent.empty()) f.user_agent = user_agent(o.agent, o.contact_url);
    return f;
  }

  static WarcOutputOptions warc_options(const CrawlOptions& o) {
    WarcOutputOptions w;
    w.dir = o.out_dir;
    w.prefix = o.warc_prefix;
    w.max_file_bytes = o.max_warc_bytes;
    w.warcinfo = {{"robots", "obey"}, {"http-header-user-agent", fetch_options(o).user_agent}};
    if (!o.contact_url.empty()) w.warcinfo.push_back({"operator", o.contact_url});
    return w;
  }

  double now() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }

  double epoch_now() const {
    return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch())
        .count();
  }

  bool limit_reached() const { return o_.max_fetches && fetches_ >= o_.max_fetches; }

  void seed_or_resume() {
    for (const auto& seed : o_.seeds)
      if (auto n = normalize_url("", seed); n && scope_.seed_hosts)
        scope_.hosts.push_back(url::host(*n));
    if (store_.seen_count() > 0) {
      report_.counters.add("resumed_urls",
                           static_cast<int64_t>(frontier_.restore(
                               [](const QueuedUrl& u) { return politeness_host(u.url); })));
      return;
    }
    for (const auto& seed : o_.seeds) {
      if (!normalize_url("", seed)) {
        problems_.report({seed, 0, "bad_seed", "not an absolute http(s) URL"});
        continue;
      }
      enqueue(seed, "", Lane::link, 0, 0);
    }
  }

  void enqueue(std::string_view reference, const std::string& via, Lane lane, uint32_t depth,
               uint32_t redirects) {
    auto n = normalize_url(via, reference);
    if (!n) return report_.counters.add("invalid_urls");
    if (lane == Lane::link && depth > o_.max_depth) return report_.counters.add("beyond_depth");
    if (redirects > o_.max_redirects) return report_.counters.add("redirects_too_many");
    if (auto trap = trap_of(*n, o_.traps); !trap.empty())
      return report_.counters.add("trap_" + std::string(trap));
    if (!in_scope(scope_, *n, lane == Lane::embed)) return report_.counters.add("out_of_scope");
    QueuedUrl url{*n, via, depth, lane, 0, redirects};
    report_.counters.add(frontier_.add(url, politeness_host(*n), seen_key(*n)) ? "queued"
                                                                               : "duplicate_urls");
  }

  void start_ready() {
    while (fetcher_.active() < o_.connections && !limit_reached()) {
      auto ticket = frontier_.next(now());
      if (!ticket) return;
      RobotsState& robots = robots_[robots_url(ticket->url.url)];  // per scheme, host, port
      if (!robots.known || now() - robots.fetched_at > o_.robots_max_age_s) {
        start_fetch(std::move(*ticket), true);
        continue;
      }
      if (!robots.rules.allowed(o_.agent, ticket->url.url)) {
        report_.counters.add("robots_disallowed");
        frontier_.skip(*ticket);
        continue;
      }
      if (ticket->url.lane == Lane::link && o_.max_pages_per_host &&
          pages_[ticket->host] >= o_.max_pages_per_host) {
        report_.counters.add("host_page_limit");
        frontier_.skip(*ticket);
        continue;
      }
      if (ticket->url.lane == Lane::link) ++pages_[ticket->host];
      start_fetch(std::move(*ticket), false);
    }
  }

  void start_fetch(Ticket ticket, bool robots) {
    uint64_t id = next_id_++;
    FetchRequest request{id, robots ? robots_url(ticket.url.url) : ticket.url.url, robots ? 5 : 0};
    ++fetches_;
    fetcher_.start(std::move(request));
    pending_.emplace(id, Pending{std::move(ticket), robots});
  }

  void finish(FetchResult result) {
    auto it = pending_.find(result.id);
    if (it == pending_.end()) return;
    Pending pending = std::move(it->second);
    pending_.erase(it);
    report_.counters.add("fetches");
    if (pending.robots) {
      finish_robots(result, std::move(pending.ticket));
    } else {
      finish_page(result, std::move(pending.ticket));
    }
  }

  // RFC 9309 §2.3.1: 2xx parsed, 4xx allows everything, 5xx and no answer disallow everything.
  void finish_robots(const FetchResult& r, Ticket ticket) {
    RobotsState& robots = robots_[robots_url(ticket.url.url)];
    robots.known = true;
    robots.fetched_at = now();
    if (r.ok && r.status >= 200 && r.status < 300) {
      robots.rules = RobotsTxt::parse(decoded_body(r));
      report_.counters.add("robots_fetched");
    } else if (r.ok && r.status >= 400 && r.status < 500) {
      robots.rules = RobotsTxt::allow_all();
      report_.counters.add("robots_unavailable");
    } else {
      robots.rules = RobotsTxt::disallow_all();
      report_.counters.add("robots_unreachable");
      problems_.report(
          {r.url, 0, "robots_unreachable", r.ok ? "status " + std::to_string(r.status) : r.error});
    }
    if (auto delay = robots.rules.crawl_delay(o_.agent))
      frontier_.set_crawl_delay(ticket.host, *delay);
    if (r.ok) warc_.write(r, QueuedUrl{r.url, "", 0, Lane::link, 0, 0}, {});
    frontier_.put_back(ticket, now() + frontier_.host_delay(ticket.host, r.seconds));
  }

  void finish_page(const FetchResult& r, Ticket ticket) {
    double t = now();
    bool retryable = !r.ok || r.status == 429 || r.status == 503;
    if (retryable && ticket.url.attempts + 1 < o_.max_attempts) {
      ++ticket.url.attempts;
      report_.counters.add(r.ok ? "backoffs_" + std::to_string(r.status) : "retries_network");
      double wait =
          r.ok ? retry_after_s(r, epoch_now()).value_or(o_.politeness.default_retry_after_s)
               : o_.politeness.default_retry_after_s * ticket.url.attempts;
      wait = std::clamp(wait, frontier_.host_delay(ticket.host, r.seconds),
                        o_.politeness.max_retry_after_s);
      frontier_.put_back(ticket, t + wait);
      return;
    }
    if (!r.ok) {
      report_.counters.add(r.timed_out ? "failed_timeout" : "failed_network");
      problems_.report({r.url, 0, r.timed_out ? "fetch_timeout" : "fetch_failed", r.error});
      frontier_.done(ticket, t, r.seconds);
      return;
    }
    std::vector<Outlink> outlinks;
    if (r.status >= 200 && r.status < 300 && is_html(r) && ticket.url.lane == Lane::link) {
      std::string body = decoded_body(r);
      outlinks = page_outlinks(r.url, body, report_.counters);
      note_near_duplicate(r.url, body);
    }
    CaptureKind kind = warc_.write(r, ticket.url, outlinks);
    report_.counters.add(kind == CaptureKind::revisit ? "revisits" : "responses");
    if (kind == CaptureKind::duplicate) report_.counters.add("duplicate_payloads");
    report_.counters.add("status_" + std::to_string(r.status / 100) + "xx");
    report_.counters.add("bytes", static_cast<int64_t>(r.body.size()));
    if (r.truncated) report_.counters.add("truncated");
    frontier_.done(ticket, t, r.seconds);
    if (r.status >= 300 && r.status < 400) {
      std::string location = r.header("Location");
      if (!location.empty())
        enqueue(location, r.url, ticket.url.lane, ticket.url.depth, ticket.url.redirects + 1);
    }
    for (const Outlink& link : outlinks)
      enqueue(link.url, r.url, link.lane,
              link.lane == Lane::link ? ticket.url.depth + 1 : ticket.url.depth, 0);
  }

  // Reported, never skipped: the page is archived and its links followed all the same.
  void note_near_duplicate(const std::string& page, std::string_view html) {
    auto sketch = similar::sketch_html(html);
    if (!sketch) return;
    auto earlier = near_duplicates_.add(page, *sketch);
    if (!earlier) return;
    report_.counters.add("near_duplicate_pages");
    if (report_.near_duplicates.size() < kMaxNearDuplicatesListed)
      report_.near_duplicates.emplace_back(page, *earlier);
  }

  std::string progress_line() const {
    char line[200];
    double elapsed = now();
    std::snprintf(
        line, sizeof line,
        "%lld fetched  %.1f/s  queued %zu  hosts %zu  active %zu  waiting (politeness) %zu",
        static_cast<long long>(report_.counters.get("fetches")),
        elapsed > 0 ? static_cast<double>(report_.counters.get("fetches")) / elapsed : 0.0,
        frontier_.queued(), frontier_.hosts(), frontier_.busy_hosts(),
        frontier_.waiting_hosts(elapsed));
    return line;
  }

  const CrawlOptions& o_;
  ProblemLog& problems_;
  UrlStore store_;
  Frontier frontier_;
  Fetcher fetcher_;
  WarcOutput warc_;
  Scope scope_;
  std::chrono::steady_clock::time_point start_;
  CrawlReport report_;
  std::unordered_map<std::string, RobotsState> robots_;
  std::unordered_map<std::string, uint64_t> pages_;
  std::unordered_map<uint64_t, Pending> pending_;
  similar::PageNearDuplicates near_duplicates_;
  uint64_t next_id_ = 1, fetches_ = 0;
};

}  // namespace

std::string user_agent(const std::string& agent, const std::string& contact_url) {
  std::string ua = "Mozilla/5.0 (compatible; " + agent + "/1.0";
  if (!contact_url.empty()) ua += "; +" + contact_url;
  return ua + ")";
}

CrawlReport run_crawl(const CrawlOptions& options, ProblemLog& problems) {
  return Crawl(options, problems).run();
}

}  // namespace strata::crawl
