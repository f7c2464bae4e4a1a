#include "server/replay.hpp"

#include <algorithm>
#include <cstdlib>
#include <iterator>
#include <optional>

#include "analyze/thumbnail_store.hpp"
#include "archive/locate.hpp"
#include "core/json.hpp"
#include "index/document_builder.hpp"
#include "index/schema.hpp"
#include "index/stored_data.hpp"
#include "replay/banner.hpp"
#include "replay/client_rewrite.hpp"
#include "replay/memento.hpp"
#include "replay/rewrite.hpp"
#include "search/request.hpp"
#include "url/url.hpp"

namespace strata::server {
namespace {

using replay::Capture;

constexpr const char* kPrefix = "/wayback/";
constexpr const char* kUsage =
    "expected /wayback/{timestamp: 4 to 14 digits, or *}[im_|id_|js_|cs_|if_|mp_|fr_|oe_|wkr_]/"
    "{url}";

// Shown for images without a thumbnail (not analysed yet, or not decodable).
constexpr const char* kPlaceholderSvg =
    R"(<svg xmlns="http://www.w3.org/2000/svg" width="200" height="150" viewBox="0 0 200 150">)"
    R"(<rect width="200" height="150" fill="#e4e4e4"/>)"
    R"(<path d="M70 105l25-30 18 20 12-14 20 24z" fill="#b0b0b0"/>)"
    R"(<circle cx="80" cy="55" r="9" fill="#b0b0b0"/></svg>)";

ReplayReply error(int status, const std::string& message) {
  ReplayReply r;
  r.status = status;
  r.body = Json{{"error", message}}.dump();
  return r;
}

ReplayReply redirect(const std::string& location) {
  ReplayReply r;
  r.status = 302;
  r.content_type = "text/plain; charset=UTF-8";
  r.headers.emplace_back("Location", location);
  return r;
}

// A memento request: "{digits}{mod}/{url}" or "*/{url}".
struct Memento {
  std::string ts;  // "" (the latest), 4 to 14 digits, or "*"
  std::string mod;
  std::string url;
};

bool modifier(std::string_view m) {
  return m.empty() || m == "im_" || m == "id_" || m == "js_" || m == "cs_" || m == "if_" ||
         m == "mp_" || m == "fr_" || m == "oe_" || m == "wkr_";
}

// The modifiers wombat also writes, as the ones they serve like: mp_ (what fetch and XHR
// ask for) and fr_ (a frame) as if_, oe_ (object, embed, media) as id_, wkr_ (a worker) as js_.
std::string served_modifier(const std::string& m) {
  if (m == "mp_" || m == "fr_") return "if_";
  if (m == "oe_") return "id_";
  if (m == "wkr_") return "js_";
  return m;
}

// "archive.org/x" -> "http://archive.org/x", as pywb reads scheme-less URLs.
std::string with_scheme(std::string_view u) {
  size_t colon = u.find(':'), slash = u.find('/');
  if (colon != std::string_view::npos && (slash == std::string_view::npos || colon < slash))
    return std::string(u);
  return "http://" + std::string(u);
}

// nullopt when the head is no timestamp/modifier (then the target is a TimeGate URL).
std::optional<Memento> parse_memento(std::string_view target) {
  size_t slash = target.find('/');
  if (slash == std::string_view::npos || slash == 0) return std::nullopt;
  std::string_view head = target.substr(0, slash);
  Memento m;
  size_t digits = 0;
  while (digits < head.size() && head[digits] >= '0' && head[digits] <= '9') ++digits;
  if (head == "*") {
    m.ts = "*";
  } else {
    if (!modifier(head.substr(digits)) || (digits == 0 && head.size() < 3)) return std::nullopt;
    m.ts = head.substr(0, digits);
    m.mod = head.substr(digits);
  }
  m.url = with_scheme(target.substr(slash + 1));
  return m;
}

// The captures of `url`, in time order: of its own key, else (a fuzzy match, for
// cache-busting parameters) of the URL without its query and with any query.
std::vector<Capture> captures_of(const replay::CaptureIndex& index, const std::string& url) {
  auto exact = index.exact(url::cdx_surt(url));
  std::vector<Capture> out(exact.begin(), exact.end());
  size_t query = url.find('?');
  if (!out.empty() || query == std::string::npos) return out;
  std::string key = url::cdx_surt(url.substr(0, query));
  for (const Capture& c : index.between(key, key + '\x7f'))
    if (c.urlkey == key || c.urlkey.starts_with(key + "?")) out.push_back(c);
  std::stable_sort(out.begin(), out.end(),
                   [](const Capture& a, const Capture& b) { return a.timestamp < b.timestamp; });
  return out;
}

// The captures `keep` accepts, when there are any; else all of them.
template <class Keep>
std::vector<Capture> prefer(std::vector<Capture> captures, Keep keep) {
  std::vector<Capture> kept;
  std::copy_if(captures.begin(), captures.end(), std::back_inserter(kept), keep);
  return kept.empty() ? captures : kept;
}

// The capture a (possibly partial) timestamp asks for: the nearest within the period it
// names when there is one there, else the nearest to the period's start; "" the latest.
const Capture* choose(const std::vector<Capture>& captures, const std::string& ts) {
  if (ts.empty()) return replay::nearest(captures, "99991231235959");
  std::string low = *replay::pad_timestamp(ts, replay::Pad::down);
  std::string high = *replay::pad_timestamp(ts, replay::Pad::up);
  auto first =
      std::lower_bound(captures.begin(), captures.end(), low,
                       [](const Capture& c, const std::string& t) { return c.timestamp < t; });
  auto last =
      std::upper_bound(first, captures.end(), high,
                       [](const std::string& t, const Capture& c) { return t < c.timestamp; });
  if (first != last) return replay::nearest({first, last}, low);
  return replay::nearest(captures, low);
}

ReplayReply shards_down(size_t missing) {
  ReplayReply r = error(503, std::to_string(missing) +
                                 " shard(s) down: this URL's documents may be there; try again");
  r.headers.emplace_back("Retry-After", "5");
  return r;
}

// Blocked images (and pages all of whose images are blocked) are never served; with
// safe_only, images that safe search hides are refused. With shards missing, a URL that no
// answering shard holds a document of may be one they hold: refused (503) rather than served
// unchecked.
std::optional<ReplayReply> moderation(Xapian::Database& db, const search::IndexParts& parts,
                                      const std::string& url, bool safe_only,
                                      size_t shards_missing) {
  bool found = false;
  for (bool image : {true, false}) {
    std::string term =
        index::url_term(image ? index::prefix::img_url : index::prefix::page_url, url);
    bool any = false, visible = false, shown = false;
    for (auto it = db.postlist_begin(term); it != db.postlist_end(term); ++it) {
      merge::ImageDocument d;
      index::Moderation m;
      if (!index::parse_document_data(parts.stored(*it).unpack(db.get_document(*it).get_data()), d,
                                      m))
        continue;
      if ((image ? d.imgUrl : d.pageUrl) != url) continue;
      any = found = true;
      visible = visible || !m.blocked;
      shown = shown || (!m.blocked && (!image || !safe_only || search::safe_search_shows(m.safe)));
    }
    if (any && !visible) return error(404, "no capture of this URL in the index");
    if (any && !shown) return error(403, "hidden by safe search");
  }
  if (!found && shards_missing > 0) return shards_down(shards_missing);
  return std::nullopt;
}

struct Archived {
  std::string body, content_type, location;
  int status = 200;
};

// The payload and HTTP facts of the record at (archive key, offset) for `url` ("" for an
// inline image, whose location is its page's record).
std::optional<ReplayReply> read_record(const search::IndexParts& parts, const std::string& file,
                                       uint64_t offset, const std::string& url,
                                       const std::vector<std::filesystem::path>& roots,
                                       Archived& out) {
  const auto entry = parts.registered_archive(file);
  if (!entry) return error(404, "the capture's archive is not registered in this index");
  const archive::Located located = archive::locate_archive(*entry, roots);
  if (located.file.empty())
    return error(located.state == archive::ArchiveState::changed ? 409 : 404, located.error);
  archive::CheckedRecord checked = archive::read_checked_record(located.file, offset, url);
  if (!checked.reader)
    return error(checked.error.rfind("archive changed", 0) == 0 ? 409 : 404, checked.error);
  if (checked.reader->read_payload(out.body) != archive::PayloadStatus::ok)
    return error(502, "archive record damaged or too large");
  const auto& rec = checked.reader->record();
  std::string type(rec.http.header("Content-Type"));
  // A resource record (no HTTP message) is typed by its WARC Content-Type: an EPUB's chapter
  // (books/epub_warc.hpp) is XHTML, read as HTML once rewritten (the banner is HTML), UTF-8
  // as EPUB requires (a UTF-16 one has a byte-order mark, which wins).
  if (!rec.http.present && type.empty()) {
    type = rec.content_type;
    if (type == "application/xhtml+xml") type = "text/html; charset=utf-8";
  }
  out.content_type =
      type.empty() ? (rec.http.mime.empty() ? "application/octet-stream" : rec.http.mime) : type;
  out.status = rec.http.status;
  out.location = rec.http.header("Location");
  return std::nullopt;
}

// A script's declared type (served as a script under any page modifier: scripts a page
// builds at run time are asked for without js_).
bool javascript_media(const std::string& m) {
  return m == "text/javascript" || m == "application/javascript" ||
         m == "application/x-javascript" || m == "application/ecmascript" || m == "text/ecmascript";
}

// The reply for archived bytes under `mod`: rewritten where they name URLs, typed by
// replay_safety.hpp; on the replay origin, pages start wombat and scripts run.
ReplayReply served(Archived a, const Capture& c, const std::vector<Capture>& captures,
                   const std::string& requested_mod, const ReplayContext& ctx,
                   const std::string& request_ts) {
  const std::string mod = served_modifier(requested_mod);
  const bool client = !ctx.client_static_prefix.empty();
  const replay::RewriteContext rw{kPrefix, c.timestamp, c.url, client};
  const std::string media = media_type(a.content_type);
  const bool html = media == "text/html" || media == "application/xhtml+xml";
  ServedType type;
  if (mod == "im_") {
    type = served_image_type(a.body);
  } else if (mod == "id_") {
    type = served_raw_type(a.body, a.content_type);
  } else if (mod == "js_" || (mod != "cs_" && javascript_media(media))) {
    a.body = replay::rewrite_js(a.body, rw);
    type = served_script_type(client);
  } else if (mod == "cs_" || media == "text/css") {
    a.body = replay::rewrite_css(a.body, rw);
    type = served_stylesheet_type();
  } else if (html) {
    std::string banner = mod.empty() ? replay::banner_html(kPrefix, c, captures) : "";
    std::string head;
    if (client)
      head = replay::wombat_head_insert({ctx.service + kPrefix, ctx.client_static_prefix,
                                         c.timestamp, request_ts, c.url, requested_mod, "wayback"});
    a.body = replay::rewrite_html(a.body, rw, banner, head);
    type = served_page_type(a.content_type);
  } else {
    type = served_raw_type(a.body, a.content_type);
  }
  ReplayReply r;
  r.status = a.status >= 200 && a.status < 600 ? a.status : 200;
  r.body = std::move(a.body);
  r.content_type = type.content_type;
  r.headers = std::move(type.headers);
  return r;
}

void add_memento_headers(ReplayReply& r, const replay::Routes& routes, const Capture& c) {
  r.headers.emplace_back("Memento-Datetime", replay::http_date(c.timestamp));
  r.headers.emplace_back("Link", replay::memento_link_header(routes, c.url));
}

ReplayReply serve_capture(const search::IndexParts& parts, const replay::CaptureIndex& index,
                          const Capture& c, const std::vector<Capture>& captures,
                          const std::string& mod, const std::string& request_ts,
                          const ReplayContext& ctx) {
  const Capture* source = c.revisit ? index.original_of(c) : &c;
  if (!source) return error(404, "a revisit of a payload that the archives do not hold");
  Archived a;
  if (auto failed =
          read_record(parts, source->archive, source->offset, source->url, ctx.archive_roots, a))
    return *failed;
  const replay::Routes routes{ctx.service + kPrefix};
  ReplayReply r;
  if (a.status >= 300 && a.status < 400 && !a.location.empty()) {
    auto target = url::resolve(c.url, a.location);
    r = target ? redirect(kPrefix + c.timestamp + mod + "/" + *target)
               : error(502, "archived redirect without a usable Location");
  } else {
    r = served(std::move(a), c, captures, mod, ctx, request_ts);
  }
  add_memento_headers(r, routes, c);
  return r;
}

ReplayReply timegate(const replay::CaptureIndex& index, const std::string& url,
                     const ReplayContext& ctx) {
  std::string want = "99991231235959";
  if (!ctx.accept_datetime.empty()) {
    auto parsed = replay::parse_http_date(ctx.accept_datetime);
    if (!parsed) return error(400, "Accept-Datetime: expected an HTTP date (RFC 7231)");
    want = *parsed;
  }
  auto captures = captures_of(index, url);
  if (captures.empty()) return error(404, "no capture of this URL in the archives");
  const Capture* c = replay::nearest(captures, want);
  const replay::Routes routes{ctx.service + kPrefix};
  ReplayReply r = redirect(routes.memento(c->timestamp, c->url));
  r.headers.emplace_back("Vary", "accept-datetime");
  r.headers.emplace_back("Link", replay::timegate_link_header(routes, url, captures));
  return r;
}

ReplayReply timemap(const replay::CaptureIndex& index, const std::string& target,
                    const ReplayContext& ctx) {
  bool link = target.starts_with("link/");
  if (!link && !target.starts_with("json/"))
    return error(400, "expected /wayback/timemap/{link|json}/{url}");
  std::string url = with_scheme(target.substr(5));
  auto exact = index.exact(url::cdx_surt(url));
  if (exact.empty()) return error(404, "no capture of this URL in the archives");
  const replay::Routes routes{ctx.service + kPrefix};
  ReplayReply r;
  r.status = 200;
  r.body =
      link ? replay::timemap_link(routes, url, exact) : replay::timemap_json(routes, url, exact);
  r.content_type = link ? "application/link-format" : "application/json";
  return r;
}

// Inline (data:) images and captures the archives no longer index: the nearest document's
// own record, as replay served it before the capture index.
ReplayReply document_capture(Xapian::Database& db, const search::IndexParts& parts,
                             const Memento& m, const ReplayContext& ctx);

}  // namespace

ReplayReply replay(Xapian::Database& db, const replay::CaptureIndex& index,
                   const std::string& target, const ReplayContext& ctx) {
  return replay(db, search::IndexParts(db), index, target, ctx);
}

ReplayReply replay(Xapian::Database& db, const search::IndexParts& parts,
                   const replay::CaptureIndex& index, const std::string& target,
                   const ReplayContext& ctx) {
  if (target.starts_with("timemap/")) return timemap(index, target.substr(8), ctx);
  auto m = parse_memento(target);
  if (!m) {
    if (target.find('.') == std::string::npos && target.find(':') == std::string::npos)
      return error(400, kUsage);
    return timegate(index, with_scheme(target), ctx);
  }
  if (!m->ts.empty() && m->ts != "*" && !replay::pad_timestamp(m->ts, replay::Pad::down))
    return error(400, kUsage);
  if (auto refused = moderation(db, parts, m->url, ctx.safe_only, ctx.shards_missing))
    return *refused;
  auto captures =
      prefer(captures_of(index, m->url), [&](const Capture& c) { return c.url == m->url; });
  if (m->ts == "*") {
    if (captures.empty()) return error(404, "no capture of this URL in the archives");
    ReplayReply r;
    r.status = 200;
    r.body = replay::captures_page(kPrefix, m->url, captures);
    r.content_type = "text/html; charset=utf-8";
    return r;
  }
  if (captures.empty()) return document_capture(db, parts, *m, ctx);
  // Another URL's redirect (http: to https:, www to none) would only lead back here.
  if (captures.front().url != m->url)
    captures = prefer(std::move(captures), [](const Capture& c) { return c.status[0] != '3'; });
  const Capture* c = choose(captures, m->ts);
  if (c->timestamp != m->ts || c->url != m->url) {
    ReplayReply r = redirect(kPrefix + c->timestamp + m->mod + "/" + c->url);
    add_memento_headers(r, replay::Routes{ctx.service + kPrefix}, *c);
    return r;
  }
  return serve_capture(parts, index, *c, captures, m->mod, m->ts, ctx);
}

namespace {

// The document whose capture time of that URL is nearest to ts.
bool find_document(Xapian::Database& db, const search::IndexParts& parts, bool image,
                   const std::string& url, const std::string& ts, merge::ImageDocument& best,
                   index::Moderation* best_m = nullptr) {
  std::string term = index::url_term(image ? index::prefix::img_url : index::prefix::page_url, url);
  long long want = std::atoll(ts.c_str()), best_gap = -1;
  for (auto it = db.postlist_begin(term); it != db.postlist_end(term); ++it) {
    merge::ImageDocument d;
    index::Moderation m;
    const std::string data = db.get_document(*it).get_data();
    if (!index::parse_document_data(parts.stored(*it).unpack(data), d, m) || m.blocked) continue;
    if ((image ? d.imgUrl : d.pageUrl) != url) continue;
    const std::string& t = image ? d.imgCrawlTimestamp : d.pageCrawlTimestamp;
    long long gap = std::llabs(std::atoll(t.c_str()) - want);
    if (best_gap < 0 || gap < best_gap) {
      best_gap = gap, best = d;
      if (best_m) *best_m = m;
    }
  }
  return best_gap >= 0;
}

ReplayReply document_capture(Xapian::Database& db, const search::IndexParts& parts,
                             const Memento& m, const ReplayContext& ctx) {
  const bool image = m.mod == "im_";
  const std::string ts = replay::pad_timestamp(m.ts.empty() ? "9999" : m.ts, replay::Pad::down)
                             .value_or("99990101000000");
  merge::ImageDocument d;
  if (!find_document(db, parts, image, m.url, ts, d))
    return ctx.shards_missing ? shards_down(ctx.shards_missing)
                              : error(404, "no capture of this URL in the index");
  Archived a;
  const std::string url = image ? (d.isInline ? std::string() : d.imgUrl) : d.pageUrl;
  if (auto failed = read_record(parts, image ? d.imgFile : d.pageFile,
                                image ? d.imgOffset : d.pageOffset, url, ctx.archive_roots, a))
    return *failed;
  ServedType type = image ? served_image_type(a.body) : served_page_type(a.content_type);
  ReplayReply r;
  r.status = 200;
  r.body = std::move(a.body);
  r.content_type = type.content_type;
  r.headers = std::move(type.headers);
  return r;
}

}  // namespace

bool is_page_memento(const std::string& target) {
  auto m = parse_memento(target);
  if (!m || m->ts == "*") return false;
  const std::string mod = served_modifier(m->mod);
  return mod.empty() || mod == "if_";
}

bool replay_refuses(Xapian::Database& db, const std::string& url, bool safe_only) {
  return replay_refuses(db, search::IndexParts(db), url, safe_only, 0);
}

bool replay_refuses(Xapian::Database& db, const search::IndexParts& parts, const std::string& url,
                    bool safe_only, size_t shards_missing) {
  return moderation(db, parts, url, safe_only, shards_missing).has_value();
}

ReplayReply thumbnail(Xapian::Database& db, const std::string& target, bool safe_only,
                      const std::filesystem::path& thumbs) {
  return thumbnail(db, search::IndexParts(db), target, safe_only, {thumbs});
}

ReplayReply thumbnail(Xapian::Database& db, const search::IndexParts& parts,
                      const std::string& given, bool safe_only,
                      const std::vector<std::filesystem::path>& thumb_roots,
                      size_t shards_missing) {
  const char* usage = "expected /thumbnail/{safe|all}/[2x/]{14-digit ts}/{image url}";
  // 2x/: the high-density thumbnail, where the analysis made one (else the thumbnail).
  const bool retina = std::string_view(given).starts_with("2x/");
  const std::string target = retina ? given.substr(3) : given;
  size_t slash = target.find('/');
  if (slash != 14 || !std::all_of(target.begin(), target.begin() + 14,
                                  [](char c) { return c >= '0' && c <= '9'; }))
    return error(400, usage);
  const std::string url = target.substr(15);
  if (url.empty()) return error(400, usage);
  merge::ImageDocument d;
  index::Moderation m;
  if (!find_document(db, parts, true, url, target.substr(0, 14), d, &m))
    return shards_missing ? shards_down(shards_missing)
                          : error(404, "no capture of this URL in the index");
  if (safe_only && !search::safe_search_shows(m.safe)) return error(403, "hidden by safe search");
  ReplayReply r;
  r.status = 200;
  std::optional<std::string> webp;
  for (size_t k = 0; retina && !m.thumbnail.empty() && !webp && k < thumb_roots.size(); ++k)
    webp = analyze::ThumbnailStore(thumb_roots[k]).retina().get(d.imgDigest);
  // The thumbnail in place of a high-density one that a later analysis may still make.
  const bool stand_in = retina && !webp;
  for (size_t k = 0; !m.thumbnail.empty() && !webp && k < thumb_roots.size(); ++k)
    webp = analyze::ThumbnailStore(thumb_roots[k]).get(d.imgDigest);
  if (!webp) {
    // Analysis may still come: cache the placeholder briefly only.
    r.body = kPlaceholderSvg;
    r.content_type = "image/svg+xml";
    r.headers.emplace_back("Cache-Control", "public, max-age=300");
    return r;
  }
  r.body = std::move(*webp);
  r.content_type = "image/webp";
  r.headers.emplace_back(
      "Cache-Control", stand_in ? "public, max-age=86400" : "public, max-age=31536000, immutable");
  return r;
}

}  // namespace strata::server
