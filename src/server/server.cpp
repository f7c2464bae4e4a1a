#include "server/server.hpp"

#include <xapian.h>

#include <fstream>
#include <functional>
#include <map>
#include <sstream>
#include <thread>

#include "core/json.hpp"
#include "index/schema.hpp"
#include "replay/cdx_api.hpp"
#include "search/spy_tables.hpp"
#include "server/access_log.hpp"
#include "server/export_api.hpp"
#include "server/export_progress.hpp"
#include "server/index_summary.hpp"
#include "server/openapi.hpp"
#include "server/replay.hpp"
#include "server/replay_captures.hpp"
#include "server/replay_safety.hpp"
#include "server/similar_api.hpp"
#include "server/static_files.hpp"

namespace strata::server {
namespace {

namespace fs = std::filesystem;

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

// Opens the index once and reads a document, so a missing, empty or damaged index is
// reported at startup, not on the first request.
void check_index(const fs::path& dir) {
  const std::string where = "index " + dir.string();
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) throw StartupError(where + " does not exist");
  if (fs::is_empty(dir, ec))
    throw StartupError(where + " is empty: build it with `strata index` first");
  try {
    Xapian::Database db(dir.string());
    std::string schema = db.get_metadata(std::string(index::kMetaSchema));
    if (schema != index::kSchemaVersion)
      throw StartupError(where + " has schema " + (schema.empty() ? "(none)" : schema) +
                         ", this strata reads " + std::string(index::kSchemaVersion) +
                         ": rebuild it with `strata index`");
    if (db.get_doccount() > 0) db.get_document(*db.postlist_begin("")).get_data();
  } catch (const Xapian::Error& e) {
    throw StartupError(where + " cannot be read (" + e.get_type() + ": " + e.get_msg() + ")");
  }
}

HttpResponse json_response(int status, const std::string& body) {
  HttpResponse r;
  r.status = status;
  r.body = body;
  return r;
}

HttpResponse not_found() {
  return json_response(404, Json{{"error", {{"status", 404}, {"message", "not found"}}}}.dump());
}

bool starts_with(const std::string& s, std::string_view prefix) {
  return s.compare(0, prefix.size(), prefix) == 0;
}

HttpResponse from_replay(ReplayReply r) {
  HttpResponse out;
  out.status = r.status;
  out.body = std::move(r.body);
  out.content_type = std::move(r.content_type);
  out.headers = std::move(r.headers);
  return out;
}

// Where the replay origin serves wombat (wbinfo.static_prefix).
constexpr const char* kWombatPrefix = "/_strata/";

std::string read_file(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

// Every reply of the replay origin carries its policy instead of the interface's, except
// HTML that is not a replayed page (id_ and oe_ serve a page's bytes as captured, without
// wombat and its navigation guard): that keeps the interface's, which runs no script.
void replay_origin_policy(HttpResponse& r, bool page) {
  const std::string media = media_type(r.content_type);
  if (!page && (media == "text/html" || media == "application/xhtml+xml")) return;
  std::erase_if(r.headers, [](const auto& h) { return h.first == "Content-Security-Policy"; });
  r.headers.emplace_back("Content-Security-Policy", kReplayOriginPolicy);
}

ReplayReply error_reply(int status, const std::string& message) {
  ReplayReply r;
  r.status = status;
  r.body = Json{{"error", {{"status", status}, {"message", message}}}}.dump();
  r.content_type = "application/json; charset=UTF-8";
  return r;
}

}  // namespace

struct Server::Impl {
  ServerOptions options;
  fs::path web_dir;
  std::unique_ptr<AccessLog> access_log;
  std::string base;
  std::unique_ptr<ReplayCaptures> captures;
  SimilarIndexCache similar_index;
  IndexSummaryCache summary;
  ExportProgress export_progress;
  // The replay origin (serve --replay-port): its base and wombat's files by path.
  std::string replay_base;
  std::map<std::string, std::string> wombat_files;
  std::thread replay_thread;
  // Last, so destroyed first: their workers, which run handle() and read everything above,
  // are joined before any of it goes (a request in flight at shutdown read a freed `base`).
  std::unique_ptr<HttpListener> replay_listener;
  std::unique_ptr<HttpListener> listener;

  // With --shard: the local index (when given) and the shards, searched together.
  std::unique_ptr<shard::ShardSet> shards;
  std::vector<fs::path> thumb_roots;

  Xapian::Database& db() { return thread_db(options.index_dir.string()); }

  // The local index (when given) comes first: a combined database reads its metadata.
  void start_shards() {
    std::vector<shard::ShardAddress> all;
    if (!options.index_dir.empty()) {
      all.push_back(shard::ShardAddress{"", 0, options.index_dir});
      thumb_roots.push_back(options.index_dir / "thumbs");
    }
    all.insert(all.end(), options.shards.begin(), options.shards.end());
    thumb_roots.insert(thumb_roots.end(), options.thumb_roots.begin(), options.thumb_roots.end());
    shards = std::make_unique<shard::ShardSet>(all, options.shard_options);
  }

  search::SearchResult search_shards(const search::SearchRequest& r, ShardAnswer& answer) {
    search::SearchResult result;
    const shard::Coverage c = shards->run([&](Xapian::Database& db, const search::IndexParts& p) {
      result = search::search(db, p, r);
    });
    answer.shards = c.shards;
    answer.missing = c.missing;
    return result;
  }

  HttpResponse shard_search(const HttpRequest& req) {
    const SearchRunner run = [this](const search::SearchRequest& r, ShardAnswer& answer) {
      return search_shards(r, answer);
    };
    Reply r = image_search(run, req.query, RequestContext{base, "/imagesearch"}, options.api);
    return json_response(r.status, r.body);
  }

  // Runs `work` over the local index, or over the shards that answer (with --shard, or a
  // sharded index); `missing`: how many shards did not (none for one index).
  using IndexWork =
      std::function<void(Xapian::Database&, const search::IndexParts&, size_t missing)>;
  shard::Coverage over_index(const IndexWork& work) {
    if (!shards) {
      auto& database = db();
      work(database, search::IndexParts(database), 0);
      return {};
    }
    const size_t total = shards->shards().size();
    return shards->run([&](Xapian::Database& database, const search::IndexParts& parts) {
      work(database, parts, total - parts.size());
    });
  }

  // The capture index of the archives the index (or every shard answering) registers.
  std::shared_ptr<const replay::CaptureIndex> captures_of(Xapian::Database& database,
                                                          const search::IndexParts& parts) {
    return shards ? captures->of(parts) : captures->of(database);
  }

  ReplayReply replay_over(const std::string& target, ReplayContext context) {
    ReplayReply reply = error_reply(503, "no shard answers");
    over_index([&](Xapian::Database& database, const search::IndexParts& parts, size_t missing) {
      context.shards_missing = missing;
      reply = replay(database, parts, *captures_of(database, parts), target, context);
    });
    return reply;
  }

  HttpResponse shard_health() {
    Xapian::doccount documents = 0;
    const shard::Coverage c = shards->run(
        [&](Xapian::Database& db, const search::IndexParts&) { documents = db.get_doccount(); });
    return json_response(200, Json{{"index", c.missing.empty() ? "ok" : "partial"},
                                   {"documents", documents},
                                   {"shards", c.shards},
                                   {"shardsMissing", c.missing.size()}}
                                  .dump());
  }

  // Safe search as the operator locked it: replay and thumbnails hide what search hides.
  bool locked_safe() const { return options.api.safe_search_locked && options.api.safe_search; }

  HttpResponse handle(const HttpRequest& req) {
    const std::string& p = req.path;
    if (shards && p == "/imagesearch") return shard_search(req);
    if (shards && p == "/imagesearch/healthcheck") return shard_health();
    if (p == "/imagesearch/openapi.json") return json_response(200, openapi_json());
    for (std::string_view mode : {"/thumbnail/safe/", "/thumbnail/all/"})
      if (starts_with(req.target, mode)) return thumb(req.target.substr(mode.size()), mode);
    if (p == kUploadPath) return similar(req);
    if (starts_with(req.target, "/wayback/")) return wayback(req);
    if (p == "/cdx") return cdx(req);
    if (p == "/imagesearch/export") return export_results(req);
    if (p == "/imagesearch/export/progress") {
      Reply r = export_progress.reply(req.query, options.api);
      return json_response(r.status, r.body);
    }
    if (p == "/imagesearch/summary") return index_summary(req);
    if (p == "/imagesearch") {
      Reply r = image_search(db(), req.query, RequestContext{base, "/imagesearch"}, options.api);
      return json_response(r.status, r.body);
    }
    if (p == "/imagesearch/healthcheck")
      return json_response(200, Json{{"index", "ok"}, {"documents", db().get_doccount()}}.dump());
    if (starts_with(p, "/imagesearch")) return not_found();
    if (starts_with(p, "/thumbnail/") || web_dir.empty()) return not_found();
    return static_file(req);
  }

  // An export reads a database of its own while it streams: the local index, or the shards
  // that answer when it starts (Strata-Shards-Missing counts the others). A shard that fails
  // later ends the transfer without its last chunk, as any failure once streaming has begun.
  HttpResponse export_results(const HttpRequest& req) {
    const RequestContext ctx{base, req.path};
    if (!shards)
      return export_reply(export_source(options.index_dir), req.query, ctx, options.api,
                          options.archive_roots, &export_progress);
    shard::ShardSet::Apart apart = shards->open_apart();
    if (apart.parts.size() == 0) return shards_unavailable("no shard answers");
    const size_t missing = apart.coverage.missing.size();
    HttpResponse r;
    try {
      r = export_reply(std::make_shared<ExportSource>(
                           ExportSource{std::move(apart.db), std::move(apart.parts)}),
                       req.query, ctx, options.api, options.archive_roots, &export_progress);
    } catch (const Xapian::NetworkError& e) {
      return shards_unavailable("a shard failed: " + e.get_description());
    }
    if (missing) r.headers.emplace_back("Strata-Shards-Missing", std::to_string(missing));
    return r;
  }

  static HttpResponse shards_unavailable(const std::string& message) {
    HttpResponse r = json_response(503, error_reply(503, message + "; try again").body);
    r.headers.emplace_back("Retry-After", "5");
    return r;
  }

  // The summary of the local index, or of the shards that answer (it then says how many did
  // not); computed once per version of what answers.
  HttpResponse index_summary(const HttpRequest& req) {
    const bool pretty =
        req.query.count("prettyPrint") && req.query.find("prettyPrint")->second == "true";
    HttpResponse r = shards_unavailable("no shard answers");
    over_index([&](Xapian::Database& database, const search::IndexParts& parts, size_t missing) {
      const auto s = shards ? summary.get(database, parts, locked_safe(),
                                          shards->shards().size(), missing)
                            : summary.get(database, locked_safe());
      r = json_response(200, summary_json(*s, pretty));
    });
    return r;
  }

  // More like this: by an indexed image's digest (GET) or an uploaded image (POST).
  // Over shards, the reply says which answered, as /imagesearch does.
  HttpResponse similar(const HttpRequest& req) {
    const RequestContext ctx{base, std::string(kUploadPath)};
    Reply r;
    r.status = 503;
    r.body = Json{{"error", {{"status", 503}, {"message", "no shard answers"}}}}.dump();
    over_index([&](Xapian::Database& database, const search::IndexParts& parts, size_t missing) {
      ShardAnswer answer;
      if (shards) answer.shards = shards->shards().size(), answer.missing.resize(missing);
      const ShardAnswer* said = shards ? &answer : nullptr;
      auto snapshot = shards ? similar_index.get(database, parts) : similar_index.get(database);
      r = req.method == "POST"
              ? similar_by_upload(database, parts, *snapshot, req.body, req.query, ctx, options.api,
                                  said)
              : similar_by_digest(database, parts, *snapshot, req.query, ctx, options.api, said);
    });
    return json_response(r.status, r.body);
  }

  HttpResponse wayback(const HttpRequest& req) {
    // Pages run their scripts on the replay origin only.
    if (replay_listener && is_page_memento(req.target.substr(9))) {
      HttpResponse r = json_response(302, "");
      r.content_type = "text/plain; charset=UTF-8";
      r.headers = archived_content_headers();
      r.headers.emplace_back("Location", replay_base + req.target);
      return r;
    }
    ReplayContext context{options.archive_roots, locked_safe(), base, req.accept_datetime, ""};
    return from_replay(replay_over(req.target.substr(9), context));
  }

  // The replay origin: archived content and wombat, nothing of the interface or the API.
  HttpResponse handle_replay(const HttpRequest& req) {
    HttpResponse out;
    if (auto file = wombat_files.find(req.path); file != wombat_files.end()) {
      out.body = file->second;
      out.content_type = "text/javascript; charset=utf-8";
      out.headers.emplace_back("Cache-Control", "public, max-age=86400");
    } else if (starts_with(req.target, "/wayback/")) {
      ReplayContext context{options.archive_roots, locked_safe(), replay_base, req.accept_datetime,
                            kWombatPrefix};
      out = from_replay(replay_over(req.target.substr(9), context));
    } else {
      out = not_found();
    }
    replay_origin_policy(
        out, starts_with(req.target, "/wayback/") && is_page_memento(req.target.substr(9)));
    return out;
  }

  // wombat.js and wombatWorkers.js, read once (a missing one stops the start).
  void load_wombat() {
    fs::path dir = options.wombat_dir;
    if (dir.empty()) {
      fs::path web = web_dir.empty() ? default_web_dir() : web_dir;
      dir = web.parent_path() / "node_modules/@webrecorder/wombat/dist";
    }
    for (const char* name : {"wombat.js", "wombatWorkers.js"}) {
      std::error_code ec;
      if (!fs::is_regular_file(dir / name, ec))
        throw StartupError((dir / name).string() +
                           " not found: --replay-port needs npm @webrecorder/wombat "
                           "(scripts/setup-web installs it)");
      wombat_files[std::string(kWombatPrefix) + name] = read_file(dir / name);
    }
  }

  // The pywb-compatible CDX server API over every capture of the registered archives (of
  // every shard answering), less those replay refuses. With shards missing, the captures of
  // URLs that no answering shard holds a document of are left out, as replay refuses them,
  // and the header Strata-Shards-Missing says how many shards did not answer.
  HttpResponse cdx(const HttpRequest& req) {
    HttpResponse out = json_response(503, error_reply(503, "no shard answers").body);
    const shard::Coverage coverage = over_index(
        [&](Xapian::Database& database, const search::IndexParts& parts, size_t missing) {
          std::map<std::string, bool> refused;  // per URL: captures of one URL come together
          auto hidden = [&](const replay::Capture& c) {
            auto [it, added] = refused.try_emplace(c.url, false);
            if (added) it->second = replay_refuses(database, parts, c.url, locked_safe(), missing);
            return it->second;
          };
          replay::CdxAnswer a = replay::cdx_api(*captures_of(database, parts), req.query, hidden);
          out.status = a.status;
          out.body = std::move(a.body);
          out.content_type = std::move(a.content_type);
        });
    if (!coverage.missing.empty())
      out.headers.emplace_back("Strata-Shards-Missing", std::to_string(coverage.missing.size()));
    return out;
  }

  // /thumbnail/{safe|all}/{ts}/{url}: under "safe" (or a locked safe search) images that
  // safe search hides are refused (403), so a thumbnail URL never shows what search hid.
  HttpResponse thumb(const std::string& target, std::string_view mode) {
    bool safe = mode == "/thumbnail/safe/" || locked_safe();
    if (!shards) return from_replay(thumbnail(db(), target, safe, options.index_dir / "thumbs"));
    ReplayReply reply = error_reply(503, "no shard answers");
    over_index([&](Xapian::Database& db, const search::IndexParts& parts, size_t missing) {
      reply = thumbnail(db, parts, target, safe, thumb_roots, missing);
    });
    return from_replay(std::move(reply));
  }

  HttpResponse static_file(const HttpRequest& req) {
    StaticReply r = serve_static(web_dir, req.path, req.if_none_match);
    HttpResponse out;
    out.status = r.status;
    out.body = r.status == 304 ? "" : r.body;
    out.content_type = r.status == 200 ? r.content_type : "text/plain; charset=UTF-8";
    if (!r.etag.empty()) out.headers.emplace_back("ETag", r.etag);
    if (!r.cache_control.empty()) out.headers.emplace_back("Cache-Control", r.cache_control);
    if (starts_with(r.content_type, "text/html"))
      out.headers.emplace_back("Content-Security-Policy",
                               "default-src 'self'; img-src 'self' data: blob:; "
                               "style-src 'self'; script-src 'self'; object-src 'none'; "
                               "base-uri 'none'; frame-ancestors 'none'");
    out.headers.emplace_back("Referrer-Policy", "no-referrer");
    return out;
  }
};

Server::Server(ServerOptions options) : impl_(std::make_unique<Impl>()) {
  if (options.index_dir.empty() && options.shards.empty())
    throw StartupError("no index: give --index or --shard");
  if (!options.index_dir.empty()) check_index(options.index_dir);
  impl_->options = std::move(options);
  auto& o = impl_->options;
  impl_->web_dir = o.web_dir.empty() ? default_web_dir() : o.web_dir;
  impl_->captures = std::make_unique<ReplayCaptures>(o.archive_roots);
  if (!o.shards.empty()) impl_->start_shards();
  try {
    if (!o.index_dir.empty()) {
      Xapian::Database db(o.index_dir.string());  // built now rather than on the first request
      if (o.shards.empty()) impl_->similar_index.get(db);  // over shards: per parts answering
      search::capture_years_of(db, false);                 // the match spies' tables, likewise
      search::group_members_of(db, false);
    }
  } catch (const Xapian::Error& e) {
    throw StartupError("index " + o.index_dir.string() + ": " + e.get_description());
  }
  AccessLogger log;
  if (!o.access_log.empty()) {
    try {
      impl_->access_log = std::make_unique<AccessLog>(o.access_log);
    } catch (const std::runtime_error& e) {
      throw StartupError(e.what());
    }
    log = [sink = impl_->access_log.get()](const AccessEntry& e) { sink->write(e); };
  }
  auto handle = [impl = impl_.get()](const HttpRequest& r) {
    try {
      return impl->handle(r);
    } catch (const Xapian::Error& e) {  // not a std::exception
      throw std::runtime_error(e.get_description());
    }
  };
  impl_->listener = std::make_unique<HttpListener>(handle, o.limits, log);
  if (o.replay_port >= 0) {
    impl_->load_wombat();
    auto handle_replay = [impl = impl_.get()](const HttpRequest& r) {
      try {
        return impl->handle_replay(r);
      } catch (const Xapian::Error& e) {
        throw std::runtime_error(e.get_description());
      }
    };
    impl_->replay_listener = std::make_unique<HttpListener>(handle_replay, o.limits, log);
  }
}

Server::~Server() {
  stop();
}

bool Server::bind() {
  const auto& o = impl_->options;
  try {
    impl_->listener->bind(o.host, o.port);
  } catch (const ListenError& e) {
    error_ = e.what();
    return false;
  }
  std::string host = o.host.find(':') == std::string::npos ? o.host : "[" + o.host + "]";
  impl_->base =
      o.service_url.empty() ? "http://" + host + ":" + std::to_string(port()) : o.service_url;
  while (impl_->base.ends_with('/')) impl_->base.pop_back();
  if (impl_->replay_listener) {
    try {
      impl_->replay_listener->bind(o.host, o.replay_port);
    } catch (const ListenError& e) {
      error_ = std::string("replay port: ") + e.what();
      return false;
    }
    auto& replay = impl_->replay_base;
    replay = o.replay_service_url.empty()
                 ? "http://" + host + ":" + std::to_string(impl_->replay_listener->port())
                 : o.replay_service_url;
    while (replay.ends_with('/')) replay.pop_back();
  }
  return true;
}

int Server::replay_port() const {
  return impl_->replay_listener ? impl_->replay_listener->port() : -1;
}

const std::string& Server::replay_base_url() const {
  return impl_->replay_base;
}

int Server::port() const {
  return impl_->listener->port();
}

const std::string& Server::base_url() const {
  return impl_->base;
}

void Server::run() {
  if (impl_->replay_listener)
    impl_->replay_thread = std::thread([this] { impl_->replay_listener->run(); });
  impl_->listener->run();
  if (impl_->replay_listener) impl_->replay_listener->stop();
  if (impl_->replay_thread.joinable()) impl_->replay_thread.join();
}

void Server::stop() {
  if (impl_ && impl_->replay_listener) impl_->replay_listener->stop();
  if (impl_ && impl_->listener) impl_->listener->stop();
}

}  // namespace strata::server
