#include "shard/shard_set.hpp"

#include <atomic>
#include <condition_variable>
#include <map>
#include <mutex>
#include <optional>
#include <stdexcept>

#include "core/log.hpp"

namespace strata::shard {
namespace {

using Clock = std::chrono::steady_clock;

std::atomic<uint64_t> next_set_id{1};

struct Health {
  bool down = false;
  Clock::time_point retry_at{};
  uint64_t generation = 0;  // bumped when the shard fails: every thread reconnects
};

struct Connection {
  Xapian::Database db;
  uint64_t generation = 0;
  bool open = false;
};

// This thread's connections, per shard set (Xapian::Database is not thread-safe).
std::vector<Connection>& thread_connections(uint64_t set_id, size_t shards) {
  thread_local std::map<uint64_t, std::vector<Connection>> all;
  auto& connections = all[set_id];
  connections.resize(shards);
  return connections;
}

// The context Xapian's errors carry for a remote shard's connection.
std::string error_context(const ShardAddress& shard) {
  return "remote:tcp(" + shard.host + ":" + std::to_string(shard.port) + ")";
}

struct Live {
  std::vector<size_t> shard;  // shard index of each part
  std::vector<Xapian::Database> parts;
  bool remote = false;
};

}  // namespace

std::string ShardAddress::name() const {
  return remote() ? host + ":" + std::to_string(port) : folder.string();
}

ShardAddress parse_remote(const std::string& spec) {
  const size_t colon = spec.rfind(':');
  if (colon == std::string::npos || colon == 0 || colon + 1 == spec.size())
    throw std::invalid_argument("shard " + spec + " is not HOST:PORT");
  ShardAddress a;
  a.host = spec.substr(0, colon);
  if (a.host.front() == '[' && a.host.back() == ']') a.host = a.host.substr(1, a.host.size() - 2);
  const std::string port = spec.substr(colon + 1);
  if (port.find_first_not_of("0123456789") != std::string::npos || port.size() > 5 ||
      std::stoul(port) == 0 || std::stoul(port) > 65535)
    throw std::invalid_argument("shard " + spec + ": the port must be 1-65535");
  a.port = static_cast<unsigned>(std::stoul(port));
  return a;
}

struct ShardSet::State {
  uint64_t id = next_set_id++;
  std::vector<ShardAddress> shards;
  ShardOptions options;
  std::mutex mutex;
  std::vector<Health> health;
  // ShardOptions::max_connections > 0: connection sets (one connection a shard) lent to the
  // threads that query, at most that many made.
  std::mutex pool_mutex;
  std::condition_variable pool_returned;
  std::vector<std::unique_ptr<std::vector<Connection>>> idle;
  size_t pool_made = 0;

  std::unique_ptr<std::vector<Connection>> borrow() {
    std::unique_lock lock(pool_mutex);
    pool_returned.wait(lock, [&] { return !idle.empty() || pool_made < options.max_connections; });
    if (idle.empty()) {
      ++pool_made;
      return std::make_unique<std::vector<Connection>>(shards.size());
    }
    auto set = std::move(idle.back());
    idle.pop_back();
    return set;
  }

  void give_back(std::unique_ptr<std::vector<Connection>> set) {
    {
      std::lock_guard lock(pool_mutex);
      idle.push_back(std::move(set));
    }
    pool_returned.notify_one();
  }

  // The shard's generation when it may be used now; nothing while it waits out retry_after.
  std::optional<uint64_t> usable(size_t i) {
    std::lock_guard lock(mutex);
    const Health& h = health[i];
    if (h.down && Clock::now() < h.retry_at) return std::nullopt;
    return h.generation;
  }

  void mark_down(size_t i, const std::string& why) {
    std::lock_guard lock(mutex);
    Health& h = health[i];
    if (!h.down)
      log::warn(
          "shard.down",
          {{"shard", shards[i].name()}, {"error", why}, {"retry_ms", options.retry_after.count()}});
    h.down = true;
    h.retry_at = Clock::now() + options.retry_after;
    ++h.generation;
  }

  void mark_up(size_t i) {
    std::lock_guard lock(mutex);
    if (health[i].down) log::info("shard.up", {{"shard", shards[i].name()}});
    health[i].down = false;
  }

  Xapian::Database open(const ShardAddress& shard) const {
    if (!shard.remote()) return Xapian::Database(shard.folder.string());
    return Xapian::Remote::open(shard.host, shard.port,
                                static_cast<useconds_t>(options.timeout.count()),
                                static_cast<useconds_t>(options.connect_timeout.count()));
  }

  // This thread's connection to shard i, reopened to see the shard's last commit (one round
  // trip to a remote shard); a new one after the shard failed, or when reopening fails other
  // than by a timeout (a server closes idle connections; a local revision may be gone).
  Xapian::Database& connection(std::vector<Connection>& connections, size_t i,
                               uint64_t generation) {
    Connection& c = connections[i];
    if (c.open && c.generation == generation) {
      try {
        c.db.reopen();
        return c.db;
      } catch (const Xapian::Error& e) {
        if (std::string(e.get_type()) == "NetworkTimeoutError") throw;  // down: no second wait
      }
    }
    c.open = false;
    c.db = open(shards[i]);
    c.generation = generation;
    c.open = true;
    return c.db;
  }

  Live open_live(std::vector<Connection>& connections) {
    Live live;
    for (size_t i = 0; i < shards.size(); ++i) {
      const auto generation = usable(i);
      if (!generation) continue;
      try {
        live.parts.push_back(connection(connections, i, *generation));
      } catch (const Xapian::Error& e) {
        mark_down(i, e.get_description());
        continue;
      }
      mark_up(i);
      live.shard.push_back(i);
      live.remote = live.remote || shards[i].remote();
    }
    return live;
  }

  // Leaves out the shards that failed. The error names its shard's connection; a timeout
  // there means the shard is down, any other error is checked with a new connection (a
  // server closes idle connections: that shard is still up). An error naming no shard has
  // every remote shard checked. This thread's other connections may hold unread replies:
  // all reconnect.
  void drop_failed(std::vector<Connection>& connections, const Live& live,
                   const Xapian::NetworkError& error) {
    std::vector<size_t> suspects;
    for (size_t i : live.shard)
      if (shards[i].remote() && error.get_context() == error_context(shards[i]))
        suspects.push_back(i);
    const bool named = !suspects.empty();
    if (!named)
      for (size_t i : live.shard)
        if (shards[i].remote()) suspects.push_back(i);
    for (Connection& c : connections) c.open = false;
    const bool timed_out = std::string(error.get_type()) == "NetworkTimeoutError";
    for (size_t i : suspects) {
      if (named && timed_out) {
        mark_down(i, error.get_description());
        continue;
      }
      try {
        open(shards[i]).keep_alive();
      } catch (const Xapian::NetworkError& e) {
        mark_down(i, e.get_description());
      }
    }
  }

  Coverage coverage(const std::vector<size_t>& answered) const {
    Coverage c{shards.size(), {}};
    for (size_t i = 0, k = 0; i < shards.size(); ++i) {
      if (k < answered.size() && answered[k] == i)
        ++k;
      else
        c.missing.push_back(shards[i].name());
    }
    return c;
  }
};

ShardSet::ShardSet(std::vector<ShardAddress> shards, ShardOptions options)
    : state_(std::make_unique<State>()) {
  if (shards.empty()) throw std::invalid_argument("no shards");
  state_->health.resize(shards.size());
  state_->shards = std::move(shards);
  state_->options = options;
}

ShardSet::~ShardSet() = default;

const std::vector<ShardAddress>& ShardSet::shards() const {
  return state_->shards;
}

Coverage ShardSet::run(const Work& work) {
  // This thread's connections, or a set borrowed from the pool for this query.
  struct Lease {
    State& state;
    std::unique_ptr<std::vector<Connection>> set;
    ~Lease() {
      if (set) state.give_back(std::move(set));
    }
  } lease{*state_, state_->options.max_connections ? state_->borrow() : nullptr};
  std::vector<Connection>& connections =
      lease.set ? *lease.set : thread_connections(state_->id, state_->shards.size());
  for (size_t attempt = 0; attempt <= state_->shards.size(); ++attempt) {
    const Live live = state_->open_live(connections);
    if (live.parts.empty()) break;
    try {
      Xapian::Database combined;
      for (const Xapian::Database& part : live.parts) combined.add_database(part);
      const search::IndexParts parts(live.parts, live.remote);
      work(combined, parts);
      return state_->coverage(live.shard);
    } catch (const Xapian::NetworkError& e) {
      state_->drop_failed(connections, live, e);
    }
  }
  return state_->coverage({});
}

ShardSet::Apart ShardSet::open_apart() {
  std::vector<Connection> connections(state_->shards.size());
  const Live live = state_->open_live(connections);
  Apart apart{Xapian::Database(), search::IndexParts(live.parts, live.remote),
              state_->coverage(live.shard)};
  for (const Xapian::Database& part : live.parts) apart.db.add_database(part);
  return apart;
}

}  // namespace strata::shard
