#include "crawl/frontier.hpp"

#include <algorithm>
#include <limits>

namespace strata::crawl {

double politeness_delay(const Politeness& rules, double fetch_seconds, double crawl_delay_s) {
  double delay =
      std::clamp(rules.delay_factor * fetch_seconds, rules.min_delay_s, rules.max_delay_s);
  return std::max(delay, std::min(crawl_delay_s, rules.max_crawl_delay_s));
}

Frontier::Frontier(UrlStore& store, Politeness rules, std::size_t max_back_queues)
    : store_(store), rules_(rules), max_back_queues_(std::max<std::size_t>(1, max_back_queues)) {}

bool Frontier::add(const QueuedUrl& url, const std::string& host, const std::string& key) {
  if (!store_.mark_seen(key)) return false;
  route(store_.enqueue(url), url.lane, host);
  return true;
}

std::size_t Frontier::restore(const std::function<std::string(const QueuedUrl&)>& host_of) {
  std::size_t restored = 0;
  store_.for_each_queued([&](uint64_t seq, const QueuedUrl& url) {
    route(seq, url.lane, host_of(url));
    ++restored;
  });
  return restored;
}

void Frontier::route(uint64_t seq, Lane lane, const std::string& host) {
  ++queued_;
  Host& state = hosts_[host];
  if (!state.has_back_queue) {
    if (back_queue_count_ >= max_back_queues_) {
      front_[static_cast<int>(lane)].push_back({seq, host});
      return;
    }
    state.has_back_queue = true;
    ++back_queue_count_;
  }
  bool was_empty = state.empty();
  state.lanes[static_cast<int>(lane)].push_back(seq);
  if (was_empty && !state.busy) schedule(host, state);
}

void Frontier::schedule(const std::string& host, Host& state) {
  heap_.push({state.next_fetch, ++state.generation, host});
}

// Mercator: a back queue that empties goes back to the pool and the front queues (embeds
// first) fill it with a new host; URLs of hosts that already have one join it on the way.
void Frontier::release_back_queue(Host& state) {
  if (!state.has_back_queue || !state.empty() || state.busy) return;
  state.has_back_queue = false;
  --back_queue_count_;
  pull_front();
}

void Frontier::pull_front() {
  for (auto& front : front_) {
    while (!front.empty() && back_queue_count_ < max_back_queues_) {
      FrontEntry entry = std::move(front.front());
      front.pop_front();
      --queued_;  // route counts it again
      route(entry.seq, &front == &front_[0] ? Lane::embed : Lane::link, entry.host);
    }
  }
}

std::optional<Ticket> Frontier::next(double now) {
  while (!heap_.empty() && heap_.top().time <= now) {
    HeapEntry top = heap_.top();
    heap_.pop();
    auto it = hosts_.find(top.host);
    if (it == hosts_.end()) continue;
    Host& state = it->second;
    if (top.generation != state.generation || state.busy || state.empty()) continue;
    auto& lane = state.lanes[0].empty() ? state.lanes[1] : state.lanes[0];
    uint64_t seq = lane.front();
    lane.pop_front();
    --queued_;
    auto url = store_.load(seq);
    if (!url) continue;  // removed behind our back: nothing to fetch
    state.busy = true;
    ++busy_;
    return Ticket{top.host, seq, std::move(*url)};
  }
  return std::nullopt;
}

std::size_t Frontier::waiting_hosts(double now) const {
  std::size_t waiting = 0;
  for (const auto& [name, host] : hosts_)
    waiting += !host.busy && !host.empty() && host.next_fetch > now;
  return waiting;
}

double Frontier::next_ready_time() const {
  return heap_.empty() ? std::numeric_limits<double>::infinity() : heap_.top().time;
}

void Frontier::done(const Ticket& ticket, double now, double fetch_seconds) {
  hosts_[ticket.host].next_fetch = now + host_delay(ticket.host, fetch_seconds);
  skip(ticket);
}

double Frontier::host_delay(const std::string& host, double fetch_seconds) const {
  auto it = hosts_.find(host);
  return politeness_delay(rules_, fetch_seconds, it == hosts_.end() ? 0 : it->second.crawl_delay);
}

void Frontier::put_back(const Ticket& ticket, double not_before) {
  Host& state = hosts_[ticket.host];
  if (state.busy) --busy_;
  state.busy = false;
  store_.update(ticket.seq, ticket.url);
  state.lanes[static_cast<int>(ticket.url.lane)].push_front(ticket.seq);
  ++queued_;
  state.next_fetch = std::max(state.next_fetch, not_before);
  schedule(ticket.host, state);
}

void Frontier::skip(const Ticket& ticket) {
  store_.remove(ticket.seq);
  Host& state = hosts_[ticket.host];
  if (state.busy) --busy_;
  state.busy = false;
  if (state.empty()) {
    release_back_queue(state);
  } else {
    schedule(ticket.host, state);
  }
}

void Frontier::set_crawl_delay(const std::string& host, double seconds) {
  hosts_[host].crawl_delay = std::min(seconds, rules_.max_crawl_delay_s);
}

std::size_t Frontier::drop_host(const std::string& host) {
  auto it = hosts_.find(host);
  if (it == hosts_.end()) return 0;
  Host& state = it->second;
  std::size_t dropped = 0;
  for (auto& lane : state.lanes) {
    for (uint64_t seq : lane) store_.remove(seq);
    dropped += lane.size();
    lane.clear();
  }
  queued_ -= dropped;
  release_back_queue(state);
  return dropped;
}

}  // namespace strata::crawl
