#pragma once
// Wayback-style replay of indexed captures: /wayback/{ts}im_/{url} returns the image record's
// payload with its original Content-Type; /wayback/{ts}/{url} the page, under
// `Content-Security-Policy: sandbox`. Only records of archives registered in the index (by
// the documents' imgFile/pageFile) are ever read: at the registered path, or under
// `archive_roots` when the archive moved (index/archive_registry.hpp). A missing archive
// answers 404 "archive missing: ...", a changed one 409 "archive changed: ..."; a record whose
// URL is not the capture's is never served.
#include <xapian.h>

#include <filesystem>
#include <string>
#include <vector>

#include "server/api.hpp"

namespace strata::server {

struct ReplayReply {
  int status = 404;
  std::string body;
  std::string content_type = "application/json; charset=UTF-8";
  bool sandbox = false;
  std::string cache_control;  // "" = none
};

// `target` = the part after "/wayback/": "20200316144708im_/https://x.pt/a.png?b=1".
// Archives no longer at their registered path are looked for under `archive_roots`
// (archive/locate.hpp). With safe_only, 403 for images safe search hides. The payload comes
// with its declared Content-Type; the server serves it under replay_safety.hpp.
ReplayReply replay(Xapian::Database& db, const std::string& target,
                   const std::vector<std::filesystem::path>& archive_roots = {},
                   bool safe_only = false);

// The search interface's thumbnail: `target` = "{14-digit ts}/{image url}". The stored WebP
// thumbnail of the nearest capture, read from `thumbs` (the index's thumbnail store) by its
// digest only, cacheable forever (content-addressed); a placeholder image when the image was
// not analysed or could not be decoded. With safe_only, 403 for images safe search hides
// (unclassified ones included); blocked images are never found.
ReplayReply thumbnail(Xapian::Database& db, const std::string& target, bool safe_only,
                      const std::filesystem::path& thumbs);

}  // namespace strata::server
