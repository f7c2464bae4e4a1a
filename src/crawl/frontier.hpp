#pragma once
// Mercator's URL frontier (Najork & Heydon; IIR §20.2.3) over a UrlStore. Front queues by
// priority (Lane: a page's embeds before further links) hold URLs of hosts without a back
// queue; back queues hold one host each, at most `max_back_queues` of them, with the two lanes
// kept apart so a page's images follow it; a heap orders the hosts by the time they may be hit
// again. One fetch per host at a time. Memory: a sequence number per queued URL and a small
// record per host; URLs live in the store. Not thread-safe (the crawl loop is one thread).
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <optional>
#include <queue>
#include <string>
#include <unordered_map>
#include <vector>

#include "crawl/url_store.hpp"

namespace strata::crawl {

// Heritrix's DispositionProcessor rule: wait delay_factor × the last fetch's duration,
// clamped to [min_delay_s, max_delay_s], and at least the robots Crawl-delay (up to
// max_crawl_delay_s; a host asking for more is crawled at that cap's rate, never faster).
struct Politeness {
  double delay_factor = 5.0;
  double min_delay_s = 3.0;
  double max_delay_s = 30.0;
  double max_crawl_delay_s = 300.0;
  double default_retry_after_s = 60.0;  // 429/503 without a usable Retry-After
  double max_retry_after_s = 3600.0;
};
double politeness_delay(const Politeness& rules, double fetch_seconds, double crawl_delay_s);

struct Ticket {  // one URL handed out for fetching
  std::string host;
  uint64_t seq = 0;
  QueuedUrl url;
};

class Frontier {
 public:
  Frontier(UrlStore& store, Politeness rules, std::size_t max_back_queues);

  // Queues `url` unless its seen key was seen before; false when it was.
  bool add(const QueuedUrl& url, const std::string& host, const std::string& key);
  // Re-queues everything the store holds (a resumed crawl).
  std::size_t restore(const std::function<std::string(const QueuedUrl&)>& host_of);
  // The URL of the host whose time has come (at `now`), or nullopt; its host is then busy.
  std::optional<Ticket> next(double now);
  // When next() will next have something (infinity when nothing is waiting).
  double next_ready_time() const;
  // The fetch ended: the URL leaves the store, the host waits its politeness delay.
  void done(const Ticket& ticket, double now, double fetch_seconds);
  // The URL was not fetched (a robots.txt fetch went first, 429 / 503, a failed connection):
  // it goes back to the head of its host's queue, kept in the store as `ticket.url` says,
  // and the host is not hit before `not_before`.
  void put_back(const Ticket& ticket, double not_before);
  // The URL leaves without a fetch (robots-disallowed, over a limit): the host's time stays.
  void skip(const Ticket& ticket);
  // The wait before the host's next fetch after one that took `fetch_seconds`.
  double host_delay(const std::string& host, double fetch_seconds) const;
  // The host's robots Crawl-delay, once known.
  void set_crawl_delay(const std::string& host, double seconds);
  // Drops every URL of a host (e.g. its robots.txt says it is unreachable); returns how many.
  std::size_t drop_host(const std::string& host);

  std::size_t queued() const { return queued_; }
  std::size_t hosts() const { return hosts_.size(); }
  std::size_t back_queues() const { return back_queue_count_; }
  std::size_t busy_hosts() const { return busy_; }
  // Hosts with URLs queued that wait for their politeness delay at `now` (not busy).
  std::size_t waiting_hosts(double now) const;
  const Politeness& rules() const { return rules_; }

 private:
  struct Host {
    std::deque<uint64_t> lanes[2];
    double next_fetch = 0;
    double crawl_delay = 0;
    bool busy = false;
    bool has_back_queue = false;
    uint64_t generation = 0;  // heap entries of older generations are stale
    bool empty() const { return lanes[0].empty() && lanes[1].empty(); }
  };
  struct FrontEntry {
    uint64_t seq;
    std::string host;
  };
  struct HeapEntry {
    double time;
    uint64_t generation;
    std::string host;
    bool operator>(const HeapEntry& o) const { return time > o.time; }
  };

  void route(uint64_t seq, Lane lane, const std::string& host);
  void schedule(const std::string& host, Host& state);
  void release_back_queue(Host& state);
  void pull_front();

  UrlStore& store_;
  Politeness rules_;
  std::size_t max_back_queues_;
  std::unordered_map<std::string, Host> hosts_;
  std::deque<FrontEntry> front_[2];
  std::priority_queue<HeapEntry, std::vector<HeapEntry>, std::greater<>> heap_;
  std::size_t queued_ = 0, back_queue_count_ = 0, busy_ = 0;
};

}  // namespace strata::crawl
