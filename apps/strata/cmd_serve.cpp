// strata serve: the ImageSearch API and replay over an index (docs/api.md).
#include <pthread.h>
#include <sys/resource.h>

#include <csignal>
#include <iostream>
#include <memory>
#include <thread>

#include "command.hpp"
#include "core/exit_codes.hpp"
#include "core/log.hpp"
#include "server/server.hpp"

namespace {

// Every startup failure: one line on stderr, exit 1.
int startup_failure(const std::string& message) {
  strata::log::error("serve.failed", {{"message", message}});
  return strata::exit_code::failure;
}

// SIGINT/SIGTERM are blocked in every thread and taken by one waiting thread, which stops
// the server from ordinary code (a signal handler may not).
sigset_t stop_signals() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
  return set;
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

int run_serve(strata::server::ServerOptions opts) {
  const sigset_t signals = stop_signals();
  raise_descriptor_limit();
  std::unique_ptr<strata::server::Server> server;
  try {
    server = std::make_unique<strata::server::Server>(std::move(opts));
  } catch (const std::exception& e) {
    return startup_failure(e.what());
  }
  if (!server->bind()) return startup_failure(server->error());
  std::thread waiter([&] {
    int sig = 0;
    sigwait(&signals, &sig);
    server->stop();
  });
  std::cerr << "strata serve: " << server->base_url() << "/imagesearch\n";
  server->run();
  pthread_kill(waiter.native_handle(), SIGTERM);  // wakes it when run() ended otherwise
  waiter.join();
  return strata::exit_code::ok;
}

const bool registered = strata::cli::register_command(
    "serve", "Serve the ImageSearch API and replay over an index",
    [](CLI::App& app) -> strata::cli::Runner {
      auto opts = std::make_shared<strata::server::ServerOptions>();
      auto safe = std::make_shared<std::string>("on");
      app.add_option("--index", opts->index_dir, "Index folder")->required();
      app.add_option("--host", opts->host, "IP address to bind (default 127.0.0.1)");
      app.add_option("--port", opts->port, "Port, 1-65535 (default 8080, 0 = any free port)");
      app.add_option(
          "--replay-url", opts->api.replay_prefix,
          "Prefix of archive links (external wayback), e.g. https://arquivo.pt/wayback/");
      app.add_option("--service-url", opts->service_url,
                     "Public base URL of every link returned (default http://HOST:PORT)");
      app.add_option("--safe-search", *safe, "Safe search by default: on|off (default on)")
          ->check(CLI::IsMember({"on", "off"}));
      app.add_flag("--safe-search-lock", opts->api.safe_search_locked,
                   "Clients cannot change safe search; replay and thumbnails obey it too");
      app.add_option("--access-log", opts->access_log, "JSON lines per request: FILE or -");
      app.add_option("--max-connections", opts->limits.max_connections,
                     "Open connections in all (default 1024; beyond: 503)");
      app.add_option("--max-connections-per-client", opts->limits.max_per_client,
                     "Open connections per client address (default 64; beyond: 503)");
      return [opts, safe] {
        opts->api.safe_search = *safe == "on";
        return run_serve(*opts);
      };
    });

}  // namespace
