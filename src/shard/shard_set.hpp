#pragma once
// Search over shards (docs/scale.md): indexes served by xapian-tcpsrv on other machines
// (Xapian's remote backend) and local index folders, combined per query into one
// Xapian::Database, so Xapian merges their term statistics and ranks as over one index.
// Tolerant as Solr's shards.tolerant: a shard that fails (refused, reset, past its timeout) is
// left out, the query runs again over the others, and the answer names the shards missing; a
// failed shard is tried again after `retry_after`, and used again once it answers.
//
// Failure contract: run() never throws for a shard's network failure; it passes on what
// `work` throws otherwise (search::RequestError, Xapian::Error other than NetworkError).
// Thread-safe: each thread keeps its own connections, or borrows a set from a pool of
// ShardOptions::max_connections for each query.
#include <xapian.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "search/index_parts.hpp"

namespace strata::shard {

struct ShardAddress {
  std::string host;  // a remote shard: xapian-tcpsrv's host and port
  unsigned port = 0;
  std::filesystem::path folder;  // a local index folder when host is empty
  bool remote() const { return !host.empty(); }
  std::string name() const;  // "host:port" or the folder
};

// "HOST:PORT" ("[::1]:PORT" for IPv6). Throws std::invalid_argument.
ShardAddress parse_remote(const std::string& spec);

struct ShardOptions {
  std::chrono::milliseconds timeout{2000};          // any one exchange with a remote shard
  std::chrono::milliseconds connect_timeout{1000};  // connecting to one
  std::chrono::milliseconds retry_after{5000};      // a failed shard is left out this long
  // 0: each thread that queries keeps its own connection to every shard (xapian-tcpsrv forks
  // a process a connection). N: at most N connections a shard, lent to the querying threads
  // for one query each (a query waits for a free set): a server pool sized to the cores.
  size_t max_connections = 0;
};

struct Coverage {
  size_t shards = 0;                 // configured
  std::vector<std::string> missing;  // left out of this answer (ShardAddress::name)
};

class ShardSet {
 public:
  // Throws std::invalid_argument when `shards` is empty.
  ShardSet(std::vector<ShardAddress> shards, ShardOptions options = {});
  ~ShardSet();
  ShardSet(const ShardSet&) = delete;
  ShardSet& operator=(const ShardSet&) = delete;

  const std::vector<ShardAddress>& shards() const;

  // Runs `work` over the shards that answer (combined database and its parts); when a shard
  // fails during it, leaves that shard out and runs `work` again. `work` does not run when no
  // shard answers (every shard is then missing).
  using Work = std::function<void(Xapian::Database&, const search::IndexParts&)>;
  Coverage run(const Work& work);

  // The shards that answer now, combined on connections of their own that no query uses: for
  // work that spans many requests, such as an export streamed in pieces. A shard that fails
  // later is not left out: its Xapian::NetworkError reaches the caller. `parts` is empty when
  // no shard answers.
  struct Apart {
    Xapian::Database db;
    search::IndexParts parts;
    Coverage coverage;
  };
  Apart open_apart();

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace strata::shard
