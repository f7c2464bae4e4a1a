// strata serve: the ImageSearch API and replay over an index (docs/api.md).
#include <sys/resource.h>
#include <unistd.h>

#include <csignal>
#include <iostream>
#include <memory>
#include <thread>
#include <vector>

#include "command.hpp"
#include "core/exit_codes.hpp"
#include "core/log.hpp"
#include "index/shard_layout.hpp"
#include "server/server.hpp"

namespace {

// Every startup failure: one line on stderr, exit 1.
int startup_failure(const std::string& message) {
  strata::log::error("serve.failed", {{"message", message}});
  return strata::exit_code::failure;
}

// SIGINT/SIGTERM write a byte to this pipe (async-signal-safe, whichever thread the signal
// lands on, libraries' threads included); a waiting thread then stops the server.
int stop_pipe[2] = {-1, -1};

void on_stop_signal(int) {
  const char byte = 1;
  [[maybe_unused]] auto written = write(stop_pipe[1], &byte, 1);
}

// Each connection is a descriptor: the default soft limit (often 1024) would end accepting
// before --max-connections; the hard limit is what the operator allowed.
void raise_descriptor_limit() {
  rlimit lim{};
  if (getrlimit(RLIMIT_NOFILE, &lim) == 0 && lim.rlim_cur < lim.rlim_max) {
    lim.rlim_cur = lim.rlim_max;
    setrlimit(RLIMIT_NOFILE, &lim);
  }
}

int usage_error(const std::string& message) {
  std::cerr << "serve: " << message << '\n';
  return strata::exit_code::usage;
}

int run_serve(const strata::server::ServerOptions& opts) {
  raise_descriptor_limit();
  std::unique_ptr<strata::server::Server> server;
  try {
    server = std::make_unique<strata::server::Server>(opts);
  } catch (const std::exception& e) {
    return startup_failure(e.what());
  }
  if (!server->bind()) return startup_failure(server->error());
  if (pipe(stop_pipe) != 0) return startup_failure("cannot create a pipe");
  std::signal(SIGINT, on_stop_signal);
  std::signal(SIGTERM, on_stop_signal);
  std::thread waiter([&] {
    char byte;
    [[maybe_unused]] auto got = read(stop_pipe[0], &byte, 1);
    server->stop();
  });
  std::cerr << "strata serve: listening on " << opts.host << ":" << server->port() << ", links to "
            << server->base_url() << "/imagesearch\n";
  if (server->replay_port() >= 0)
    std::cerr << "strata serve: replay origin on " << opts.host << ":" << server->replay_port()
              << ", links to " << server->replay_base_url() << "/wayback/\n";
  server->run();
  on_stop_signal(0);  // wakes the waiter when run() ended otherwise
  waiter.join();
  return strata::exit_code::ok;
}

const bool registered = strata::cli::register_command(
    "serve", "Serve the ImageSearch API and replay over an index",
    [](CLI::App& app) -> strata::cli::Runner {
      auto opts = std::make_shared<strata::server::ServerOptions>();
      auto safe = std::make_shared<std::string>("on");
      auto indexes = std::make_shared<std::vector<std::string>>();
      auto shards = std::make_shared<std::vector<std::string>>();
      auto timeout_ms = std::make_shared<long>(2000), retry_ms = std::make_shared<long>(5000);
      app.add_option("--index", *indexes,
                     "Index folder; repeated, the others are searched with it as shards "
                     "(export and the summary use the first); a sharded index folder "
                     "(strata index --shards) stands for its shards");
      app.add_option("--shard", *shards,
                     "HOST:PORT of a xapian-tcpsrv serving a shard (repeatable; docs/scale.md)");
      app.add_option("--shard-timeout", *timeout_ms,
                     "Milliseconds a remote shard may take per exchange before it is left out "
                     "(default 2000)")
          ->check(CLI::PositiveNumber);
      app.add_option("--shard-retry", *retry_ms,
                     "Milliseconds a failed shard is left out before it is tried again "
                     "(default 5000)")
          ->check(CLI::PositiveNumber);
      app.add_option("--thumbs", opts->thumb_roots,
                     "A shard's thumbnail folder (its <index>/thumbs; repeatable)");
      app.add_option("--host", opts->host, "IP address to bind (default 127.0.0.1)");
      app.add_option("--port", opts->port, "Port, 1-65535 (default 8080, 0 = any free port)");
      app.add_option(
          "--replay-url", opts->api.replay_prefix,
          "Prefix of archive links (external wayback), e.g. https://arquivo.pt/wayback/");
      app.add_option("--service-url", opts->service_url,
                     "Public base URL of every link returned (default http://HOST:PORT)");
      app.add_option("--replay-port", opts->replay_port,
                     "Serve archived pages, with wombat and their scripts, on an origin of "
                     "their own: this port (0 = any free port; default: none, pages run no "
                     "script; docs/replay.md)")
          ->check(CLI::Range(0, 65535));
      app.add_option("--replay-service-url", opts->replay_service_url,
                     "Public base URL of the replay origin (default http://HOST:REPLAY_PORT)");
      app.add_option("--wombat-dir", opts->wombat_dir,
                     "Folder of wombat.js and wombatWorkers.js (default: "
                     "web/node_modules/@webrecorder/wombat/dist)");
      app.add_option("--safe-search", *safe, "Safe search by default: on|off (default on)")
          ->check(CLI::IsMember({"on", "off"}));
      app.add_flag("--safe-search-lock", opts->api.safe_search_locked,
                   "Clients cannot change safe search; replay and thumbnails obey it too");
      app.add_option("--archive-root", opts->archive_roots,
                     "Folder to look for archives under when they are no longer where they "
                     "were indexed (repeatable; see strata archives)");
      app.add_option("--access-log", opts->access_log, "JSON lines per request: FILE or -");
      app.add_option("--max-connections", opts->limits.max_connections,
                     "Open connections in all (default 1024; beyond: 503)")
          ->check(CLI::PositiveNumber);
      app.add_option("--max-connections-per-client", opts->limits.max_per_client,
                     "Open connections per client address (default 64; beyond: 503)")
          ->check(CLI::PositiveNumber);
      app.add_option("--export-max", opts->api.export_max_images,
                     "Most images one /imagesearch/export may hold (default 100000)")
          ->check(CLI::PositiveNumber);
      app.add_option("--max-exports", opts->limits.max_streams,
                     "Exports streamed at once (default 4; beyond: 503)")
          ->check(CLI::PositiveNumber);
      return [opts, safe, indexes, shards, timeout_ms, retry_ms] {
        opts->api.safe_search = *safe == "on";
        if (indexes->empty() && shards->empty()) return usage_error("give --index or --shard");
        try {
          for (const std::string& s : *shards)
            opts->shards.push_back(strata::shard::parse_remote(s));
        } catch (const std::invalid_argument& e) {
          return usage_error(e.what());
        }
        // A sharded index folder (strata index --shards, a Streaming build) stands for its
        // shards; its thumbnails are in its thumbs/ (or, from Streaming, each shard's).
        std::vector<std::string> folders;
        for (const std::string& index : *indexes) {
          const auto shard_folders = strata::index::shard_folders(index);
          if (shard_folders.empty()) folders.push_back(index);
          if (!shard_folders.empty())
            opts->thumb_roots.push_back(std::filesystem::path(index) / "thumbs");
          for (const auto& folder : shard_folders) {
            folders.push_back(folder.string());
            opts->thumb_roots.push_back(folder / "thumbs");
          }
        }
        *indexes = folders;
        if (!indexes->empty()) opts->index_dir = indexes->front();
        for (size_t k = 1; k < indexes->size(); ++k)
          opts->shards.push_back(strata::shard::ShardAddress{"", 0, (*indexes)[k]});
        opts->shard_options.timeout = std::chrono::milliseconds(*timeout_ms);
        opts->shard_options.retry_after = std::chrono::milliseconds(*retry_ms);
        return run_serve(*opts);
      };
    });

}  // namespace
