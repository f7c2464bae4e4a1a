#include "server/replay.hpp"

#include <cstdlib>

#include "analyze/thumbnail_store.hpp"
#include "archive/locate.hpp"
#include "core/json.hpp"
#include "index/archive_registry.hpp"
#include "index/document_builder.hpp"
#include "index/schema.hpp"
#include "index/stored_data.hpp"
#include "search/request.hpp"

namespace strata::server {
namespace {

struct Target {
  std::string ts;
  bool image = false;
  std::string url;
};

bool parse_target(const std::string& t, Target& out) {
  size_t slash = t.find('/');
  if (slash == std::string::npos || slash < 14) return false;
  std::string head = t.substr(0, slash);
  out.ts = head.substr(0, 14);
  std::string mod = head.substr(14);
  if (!mod.empty() && mod != "im_") return false;
  for (char c : out.ts)
    if (c < '0' || c > '9') return false;
  out.image = mod == "im_";
  out.url = t.substr(slash + 1);
  return !out.url.empty();
}

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

// The document whose capture time of that URL is nearest to ts.
bool find_capture(Xapian::Database& db, const Target& t, merge::ImageDocument& best,
                  index::Moderation* best_m = nullptr) {
  std::string term =
      index::url_term(t.image ? index::prefix::img_url : index::prefix::page_url, t.url);
  long long want = std::atoll(t.ts.c_str()), best_gap = -1;
  const index::StoredData stored(db);
  for (auto it = db.postlist_begin(term); it != db.postlist_end(term); ++it) {
    merge::ImageDocument d;
    index::Moderation m;
    if (!index::parse_document_data(stored.unpack(db.get_document(*it).get_data()), d, m) ||
        m.blocked)
      continue;
    if ((t.image ? d.imgUrl : d.pageUrl) != t.url) continue;
    const std::string& ts = t.image ? d.imgCrawlTimestamp : d.pageCrawlTimestamp;
    long long gap = std::llabs(std::atoll(ts.c_str()) - want);
    if (best_gap < 0 || gap < best_gap) {
      best_gap = gap, best = d;
      if (best_m) *best_m = m;
    }
  }
  return best_gap >= 0;
}

ReplayReply read_capture(Xapian::Database& db, const Target& t, const merge::ImageDocument& d,
                         const std::vector<std::filesystem::path>& roots);

}  // namespace

ReplayReply replay(Xapian::Database& db, const std::string& target,
                   const std::vector<std::filesystem::path>& archive_roots, bool safe_only) {
  Target t;
  if (!parse_target(target, t)) return error(400, "expected /wayback/{14-digit ts}[im_]/{url}");
  merge::ImageDocument d;
  index::Moderation m;
  if (!find_capture(db, t, d, &m)) return error(404, "no capture of this URL in the index");
  if (safe_only && t.image && !search::safe_search_shows(m.safe))
    return error(403, "hidden by safe search");
  return read_capture(db, t, d, archive_roots);
}

ReplayReply thumbnail(Xapian::Database& db, const std::string& target, bool safe_only,
                      const std::filesystem::path& thumbs) {
  Target t;
  size_t slash = target.find('/');
  if (slash == std::string::npos || slash != 14)
    return error(400, "expected /thumbnail/{safe|all}/{14-digit ts}/{image url}");
  if (!parse_target(target.substr(0, 14) + "im_" + target.substr(14), t))
    return error(400, "expected /thumbnail/{safe|all}/{14-digit ts}/{image url}");
  merge::ImageDocument d;
  index::Moderation m;
  if (!find_capture(db, t, d, &m)) return error(404, "no capture of this URL in the index");
  if (safe_only && !search::safe_search_shows(m.safe)) return error(403, "hidden by safe search");
  ReplayReply r;
  r.status = 200;
  const analyze::ThumbnailStore store(thumbs);
  auto webp = m.thumbnail.empty() ? std::nullopt : store.get(d.imgDigest);
  if (!webp) {
    // Analysis may still come: cache the placeholder briefly only.
    r.body = kPlaceholderSvg;
    r.content_type = "image/svg+xml";
    r.cache_control = "public, max-age=300";
    return r;
  }
  r.body = std::move(*webp);
  r.content_type = "image/webp";
  r.cache_control = "public, max-age=31536000, immutable";
  return r;
}

namespace {
ReplayReply read_capture(Xapian::Database& db, const Target& t, const merge::ImageDocument& d,
                         const std::vector<std::filesystem::path>& roots) {
  const std::string& file = t.image ? d.imgFile : d.pageFile;
  uint64_t offset = t.image ? d.imgOffset : d.pageOffset;
  const auto entry = index::registered_archive(db, file);
  if (!entry) return error(404, "the capture's archive is not registered in this index");
  const archive::Located located = archive::locate_archive(*entry, roots);
  if (located.file.empty())
    return error(located.state == archive::ArchiveState::changed ? 409 : 404, located.error);
  // An inline (data:) image's location is its page's record.
  const std::string url = t.image ? (d.isInline ? std::string() : d.imgUrl) : d.pageUrl;
  archive::CheckedRecord checked = archive::read_checked_record(located.file, offset, url);
  if (!checked.reader)
    return error(checked.error.rfind("archive changed", 0) == 0 ? 409 : 404, checked.error);
  auto& reader = checked.reader;
  ReplayReply r;
  if (reader->read_payload(r.body) != archive::PayloadStatus::ok)
    return error(502, "archive record damaged or too large");
  const auto& rec = reader->record();
  std::string type(rec.http.header("Content-Type"));
  r.content_type =
      type.empty() ? (rec.http.mime.empty() ? "application/octet-stream" : rec.http.mime) : type;
  r.status = 200;
  r.sandbox = !t.image;
  return r;
}
}  // namespace

}  // namespace strata::server
