#pragma once
// `strata serve`: /imagesearch, /imagesearch/healthcheck, /imagesearch/openapi.json,
// /wayback/..., /thumbnail/... and the search interface at "/" (web/public, see
// static_files.hpp), over the connection layer of http_listener.hpp; with a replay port,
// a second listener on its own origin serving only /wayback/ (pages with wombat) and
// /_strata/wombat.js. Binds 127.0.0.1 by
// default. Each worker thread keeps its own read-only Xapian::Database and reopens it when
// the writer commits. Archived bytes are served under replay_headers() (replay_safety.hpp).
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "server/api.hpp"
#include "server/http_listener.hpp"
#include "shard/shard_set.hpp"

namespace strata::server {

struct ServerOptions {
  // The local index: search, replay, thumbnails, "more like this". Empty with `shards` only.
  std::filesystem::path index_dir;
  // Search over shards (docs/scale.md): with any, /imagesearch and thumbnails run over these
  // and index_dir together, a shard that fails is left out and counted in the reply.
  std::vector<shard::ShardAddress> shards;
  shard::ShardOptions shard_options;
  // Where the shards' thumbnails are (each shard's <index>/thumbs, copied or mounted);
  // index_dir's own thumbs/ is always looked at.
  std::vector<std::filesystem::path> thumb_roots;
  std::string host = "127.0.0.1";
  int port = 8080;  // 0: any free port (see Server::port())
  // Base of every link the service returns ("https://images.example.org"); never taken
  // from the request's Host. Empty: http://HOST:PORT of the listener.
  std::string service_url;
  // The replay origin (docs/replay.md "Isolation"): a second listener on this port (0: any
  // free port; -1: none) that serves archived pages with wombat, their scripts running on an
  // origin the search interface does not share. With it, the interface's page replays
  // (/wayback/{ts}/URL, if_, mp_, fr_) answer 302 there, so the API's pageLinkToArchive
  // leads there; images, stylesheets, scripts as text, lists and Memento stay served inert
  // on the interface's origin too.
  int replay_port = -1;
  // Base of the replay origin's links and of wombat's prefix (a reverse proxy's
  // "https://replay.example.org"). Empty: http://HOST:REPLAY_PORT.
  std::string replay_service_url;
  // Where wombat.js and wombatWorkers.js are (npm @webrecorder/wombat's dist/); empty: the
  // web/node_modules beside the interface (scripts/setup-web installs it).
  std::filesystem::path wombat_dir;
  ApiConfig api;  // safe-search policy, replay prefix, names
  // The search interface served at "/"; empty: default_web_dir() (static_files.hpp).
  std::filesystem::path web_dir;
  // Where replay looks for archives that are no longer at their registered path
  // (serve --archive-root, archive/locate.hpp).
  std::vector<std::filesystem::path> archive_roots;
  // JSON lines, one per reply (access_log.hpp): a file, "-" for stderr, "" for none.
  std::string access_log;
  ListenerLimits limits;
};

// A startup failure, with a one-line message fit for the operator.
struct StartupError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class Server {
 public:
  // Throws StartupError when the index is missing, empty, damaged or of another schema, or
  // the access log cannot be opened; shards are not checked (one down is left out).
  explicit Server(ServerOptions options);
  ~Server();
  // Binds; false when it failed (error() says why: in use, invalid port or address).
  bool bind();
  const std::string& error() const { return error_; }
  int port() const;
  // The base of the links the service returns (the service URL, or the listener's).
  const std::string& base_url() const;
  // The replay origin's port and base ("" and -1 without --replay-port).
  int replay_port() const;
  const std::string& replay_base_url() const;
  // Serves until stop() (any thread).
  void run();
  void stop();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  std::string error_;
};

}  // namespace strata::server
