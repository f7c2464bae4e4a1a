#pragma once
// Wayback-style replay (docs/replay.md), pywb's URL scheme under /wayback/:
//   /wayback/{ts}{mod}/{url}   a memento: ts is 4 to 14 digits (partial: the period it names)
//                              or empty; mod is "" (a page, with the banner), if_ (a framed
//                              page), im_ (an image), cs_ (a stylesheet), js_ (a script), id_
//                              (the bytes as captured); wombat's mp_ and fr_ serve as if_,
//                              oe_ as id_, wkr_ as js_. The nearest capture of the URL (or,
//                              failing that, of the URL without its query) is found in the
//                              archives the index registers; unless it is exactly the one
//                              named, 302 to its own URL. HTML, CSS and JS are rewritten so
//                              every URL they name points into the archive (replay/rewrite.hpp).
//   /wayback/*/{url}           every capture of the URL, as an HTML list
//   /wayback/{url}             Memento TimeGate (Accept-Datetime, else the latest capture)
//   /wayback/timemap/{link|json}/{url}   Memento TimeMaps
// Every reply carries the archived-content policy (replay_safety.hpp); mementos carry
// Memento-Datetime and Link. Only records of archives registered in the index are read (at
// the registered path, or under `archive_roots`); a missing archive answers 404 "archive
// missing: ...", a changed one 409 "archive changed: ..."; a record whose URL is not the
// capture's is never served. Blocked images are never served (404); with safe_only, images
// safe search hides get 403.
#include <xapian.h>

#include <filesystem>
#include <string>
#include <vector>

#include "replay/captures.hpp"
#include "search/index_parts.hpp"
#include "server/api.hpp"
#include "server/replay_safety.hpp"

namespace strata::server {

struct ReplayReply {
  int status = 404;
  std::string body;
  std::string content_type = "application/json; charset=UTF-8";
  Headers headers = archived_content_headers();  // the policy, Memento, Location, ...
};

struct ReplayContext {
  std::vector<std::filesystem::path> archive_roots;
  bool safe_only = false;
  std::string service;          // absolute base of Memento links ("http://host:port")
  std::string accept_datetime;  // the request's Accept-Datetime header
  // Set on the replay origin only (serve --replay-port): where wombat.js is served
  // ("/_strata/"); replayed pages then start wombat (replay/client_rewrite.hpp) and scripts
  // are served as JavaScript. Empty: no archived script runs (the search interface's origin).
  std::string client_static_prefix;
  // Over shards (docs/scale.md): how many did not answer. A URL none of the others holds a
  // document of is then refused (503, Retry-After) rather than served without its moderation.
  size_t shards_missing = 0;
};

// `target` = the part after "/wayback/": "20200316144708im_/https://x.pt/a.png?b=1".
ReplayReply replay(Xapian::Database& db, const replay::CaptureIndex& captures,
                   const std::string& target, const ReplayContext& context);
// The same over a database of several parts (shards, search/index_parts.hpp): documents and
// archive registrations are found in whichever part holds them; `captures` covers the
// archives of every part (ReplayCaptures::of(parts)).
ReplayReply replay(Xapian::Database& db, const search::IndexParts& parts,
                   const replay::CaptureIndex& captures, const std::string& target,
                   const ReplayContext& context);

// Whether `target` (after "/wayback/") asks for a page to be replayed: a memento under no
// modifier, if_, mp_ or fr_ (what runs scripts on the replay origin).
bool is_page_memento(const std::string& target);

// Whether replay refuses every capture of `url`: a blocked image (or a page all of whose
// images are blocked), or with safe_only an image safe search hides.
bool replay_refuses(Xapian::Database& db, const std::string& url, bool safe_only);
// Over parts; with shards missing, also a URL no answering shard holds a document of.
bool replay_refuses(Xapian::Database& db, const search::IndexParts& parts, const std::string& url,
                    bool safe_only, size_t shards_missing);

// The search interface's thumbnail: `target` = "[2x/]{14-digit ts}/{image url}". The stored WebP
// thumbnail of the nearest capture, read from `thumbs` (the index's thumbnail store) by its
// digest only, cacheable forever (content-addressed); a placeholder image when the image was
// not analysed or could not be decoded. With safe_only, 403 for images safe search hides
// (unclassified ones included); blocked images are never found. "2x/" asks for the
// high-density thumbnail (twice the size, analyze/thumbnail.hpp), the thumbnail where the
// analysis made none (an image no larger than the thumbnail, or analysed before it made them).
ReplayReply thumbnail(Xapian::Database& db, const std::string& target, bool safe_only,
                      const std::filesystem::path& thumbs);
// The same over a database of several parts (shards, search/index_parts.hpp), the thumbnail
// read from the first of `thumb_roots` that holds it; with shards missing, 503 (Retry-After)
// rather than 404 for an image the others do not hold.
ReplayReply thumbnail(Xapian::Database& db, const search::IndexParts& parts,
                      const std::string& target, bool safe_only,
                      const std::vector<std::filesystem::path>& thumb_roots,
                      size_t shards_missing = 0);

}  // namespace strata::server
