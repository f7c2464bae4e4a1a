// strata serve: the ImageSearch API and replay over an index (docs/api.md).
#include <csignal>
#include <iostream>
#include <memory>

#include "command.hpp"
#include "core/exit_codes.hpp"
#include "core/log.hpp"
#include "index/new_index.hpp"
#include "server/server.hpp"

namespace {

strata::server::Server* running = nullptr;

int run_serve(const strata::server::ServerOptions& opts) {
  if (const std::string problem = strata::index::index_problem(opts.index_dir); !problem.empty()) {
    std::cerr << "serve: " << problem << '\n';
    return strata::exit_code::failure;
  }
  try {
    strata::server::Server server(opts);
    if (!server.bind()) {
      strata::log::error("serve.bind_failed", {{"host", opts.host}, {"port", opts.port}});
      return strata::exit_code::failure;
    }
    running = &server;
    std::signal(SIGINT, [](int) {
      if (running) running->stop();
    });
    std::signal(SIGTERM, [](int) {
      if (running) running->stop();
    });
    std::cerr << "strata serve: http://" << opts.host << ":" << server.port() << "/imagesearch\n";
    server.run();
    running = nullptr;
  } catch (const std::exception& e) {
    strata::log::error("serve.failed", {{"message", e.what()}});
    return strata::exit_code::failure;
  }
  return strata::exit_code::ok;
}

const bool registered = strata::cli::register_command(
    "serve", "Serve the ImageSearch API and replay over an index",
    [](CLI::App& app) -> strata::cli::Runner {
      auto opts = std::make_shared<strata::server::ServerOptions>();
      app.add_option("--index", opts->index_dir, "Index folder")->required();
      app.add_option("--host", opts->host, "Address to bind (default 127.0.0.1)");
      app.add_option("--port", opts->port, "Port (default 8080, 0 = any)");
      app.add_option(
          "--replay-url", opts->api.replay_prefix,
          "Prefix of archive links (external wayback), e.g. https://arquivo.pt/wayback/");
      app.add_option("--service-url", opts->api.link_to_service, "linkToService value");
      app.add_option("--archive-root", opts->archive_roots,
                     "Folder to look for archives under when they are no longer where they "
                     "were indexed (repeatable; see strata archives)");
      return [opts] { return run_serve(*opts); };
    });

}  // namespace
