#pragma once
// The HTTP front end (cpp-httplib): /imagesearch, /imagesearch/healthcheck,
// /imagesearch/openapi.json, /wayback/..., /thumbnail/... and the search interface at "/"
// (web/public, see static_files.hpp). Binds 127.0.0.1 by default. Each worker thread
// keeps its own read-only Xapian::Database and reopens it when the writer commits.
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "server/api.hpp"

namespace strata::server {

struct ServerOptions {
  std::filesystem::path index_dir;
  std::string host = "127.0.0.1";
  int port = 8080;  // 0: any free port (see Server::port())
  ApiConfig api;
  // The search interface served at "/"; empty: default_web_dir() (static_files.hpp).
  std::filesystem::path web_dir;
  // Where replay looks for archives that are no longer at their registered path
  // (serve --archive-root, archive/locate.hpp).
  std::vector<std::filesystem::path> archive_roots;
};

class Server {
 public:
  explicit Server(ServerOptions options);  // throws if the index cannot be opened
  ~Server();
  // Binds; false when the address is taken. Then run() serves until stop().
  bool bind();
  int port() const { return port_; }
  void run();
  void stop();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  int port_ = 0;
};

}  // namespace strata::server
