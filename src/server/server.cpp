#include "server/server.hpp"

#include <httplib.h>
#include <xapian.h>

#include <map>
#include <mutex>

#include "core/json.hpp"
#include "core/log.hpp"
#include "server/openapi.hpp"
#include "server/replay.hpp"
#include "server/static_files.hpp"

namespace strata::server {
namespace {

constexpr size_t kWorkers = 64;
constexpr size_t kKeepAliveRequests = 1000;

// One Database per (thread, index), reopened on every request (cheap when unchanged).
Xapian::Database& thread_db(const std::string& dir) {
  thread_local std::map<std::string, std::unique_ptr<Xapian::Database>> dbs;
  auto& db = dbs[dir];
  if (!db) {
    db = std::make_unique<Xapian::Database>(dir);
  } else {
    try {
      db->reopen();
    } catch (const Xapian::DatabaseModifiedError&) {
      db = std::make_unique<Xapian::Database>(dir);
    }
  }
  return *db;
}

RequestContext context(const httplib::Request& req) {
  std::string host = req.get_header_value("Host");
  return RequestContext{"http://" + (host.empty() ? std::string("127.0.0.1") : host),
                        "/imagesearch"};
}

void send(httplib::Response& res, int status, const std::string& body, const std::string& type) {
  res.status = status;
  res.set_content(body, type.c_str());
}

}  // namespace

struct Server::Impl {
  ServerOptions options;
  httplib::Server http;

  void routes() {
    // Without it a keep-alive client waits ~40 ms per reply (Nagle + delayed ACK).
    http.set_tcp_nodelay(true);
    // A keep-alive connection holds a worker for its whole life: with httplib's default of
    // 8 workers, the 9th browser tab waited for another to hang up. Idle workers cost little.
    http.new_task_queue = [] { return new httplib::ThreadPool(kWorkers); };
    http.set_keep_alive_max_count(kKeepAliveRequests);
    http.set_default_headers({{"Access-Control-Allow-Origin", "*"},
                              {"Access-Control-Allow-Methods", "GET, HEAD"},
                              {"X-Content-Type-Options", "nosniff"}});
    http.Get("/imagesearch", [this](const httplib::Request& req, httplib::Response& res) {
      Params params(req.params.begin(), req.params.end());
      Reply r = image_search(db(), params, context(req), options.api);
      send(res, r.status, r.body, r.content_type);
    });
    http.Get("/imagesearch/healthcheck", [this](const httplib::Request&, httplib::Response& res) {
      Json j = {{"index", "ok"}, {"documents", db().get_doccount()}};
      send(res, 200, j.dump(), "application/json; charset=UTF-8");
    });
    http.Get("/imagesearch/openapi.json", [](const httplib::Request&, httplib::Response& res) {
      send(res, 200, openapi_json(), "application/json; charset=UTF-8");
    });
    http.Get(R"(/wayback/.*)", [this](const httplib::Request& req, httplib::Response& res) {
      std::string target = req.target.substr(std::string("/wayback/").size());
      ReplayReply r = replay(db(), target, options.archive_roots);
      if (r.sandbox) res.set_header("Content-Security-Policy", "sandbox");
      send(res, r.status, r.body, r.content_type);
    });
    // Thumbnails for the search interface: /thumbnail/{safe|all}/{ts}/{url}, from the
    // index's thumbnail store; under "safe" images that safe search hides are refused (403),
    // so a thumbnail URL never shows what the API filtered.
    http.Get(
        R"(/thumbnail/(safe|all)/.*)", [this](const httplib::Request& req, httplib::Response& res) {
          bool safe = req.matches[1] == "safe";
          std::string target =
              req.target.substr(std::string(safe ? "/thumbnail/safe/" : "/thumbnail/all/").size());
          ReplayReply r = thumbnail(db(), target, safe, options.index_dir / "thumbs");
          if (!r.cache_control.empty()) res.set_header("Cache-Control", r.cache_control);
          if (r.status == 200) res.set_header("Content-Security-Policy", "sandbox");
          send(res, r.status, r.body, r.content_type);
        });
    if (!web_dir.empty()) {
      auto serve = [this](const httplib::Request& req, httplib::Response& res) {
        StaticReply r = serve_static(web_dir, req.path, req.get_header_value("If-None-Match"));
        if (!r.etag.empty()) res.set_header("ETag", r.etag);
        if (!r.cache_control.empty()) res.set_header("Cache-Control", r.cache_control);
        if (r.content_type.rfind("text/html", 0) == 0)
          res.set_header("Content-Security-Policy",
                         "default-src 'self'; img-src 'self' data: blob:; "
                         "style-src 'self'; script-src 'self'; object-src 'none'; "
                         "base-uri 'none'; frame-ancestors 'none'");
        res.set_header("Referrer-Policy", "no-referrer");
        res.status = r.status;
        if (r.status == 200)
          res.set_content(r.body, r.content_type.c_str());
        else if (r.status != 304)
          res.set_content(r.body, "text/plain; charset=UTF-8");
      };
      http.Get(R"(/(?!imagesearch|wayback/|thumbnail/).*)", serve);
    }
    http.set_exception_handler(
        [](const httplib::Request&, httplib::Response& res, std::exception_ptr ep) {
          std::string what = "internal error";
          try {
            std::rethrow_exception(ep);
          } catch (const std::exception& e) {
            what = e.what();
          } catch (...) {
          }
          log::error("server.exception", {{"message", what}});
          send(res, 500, Json{{"error", {{"message", what}}}}.dump(), "application/json");
        });
    http.set_error_handler([](const httplib::Request&, httplib::Response& res) {
      if (res.body.empty())
        res.set_content(Json{{"error", {{"status", res.status}}}}.dump(), "application/json");
    });
  }
  Xapian::Database& db() { return thread_db(options.index_dir.string()); }
  std::filesystem::path web_dir;
};

Server::Server(ServerOptions options) : impl_(std::make_unique<Impl>()) {
  impl_->options = std::move(options);
  Xapian::Database probe(impl_->options.index_dir.string());  // fail early
  impl_->web_dir = impl_->options.web_dir.empty() ? default_web_dir() : impl_->options.web_dir;
  impl_->routes();
}

Server::~Server() {
  stop();
}

bool Server::bind() {
  const auto& o = impl_->options;
  if (o.port == 0) {
    port_ = impl_->http.bind_to_any_port(o.host);
    return port_ > 0;
  }
  if (!impl_->http.bind_to_port(o.host, o.port)) return false;
  port_ = o.port;
  return true;
}

void Server::run() {
  impl_->http.listen_after_bind();
}

void Server::stop() {
  if (impl_) impl_->http.stop();
}

}  // namespace strata::server
