#pragma once
// Wayback-style replay of indexed captures: /wayback/{ts}im_/{url} returns the image record's
// payload with its original Content-Type; /wayback/{ts}/{url} the page, under
// `Content-Security-Policy: sandbox`. Only records of archives registered in the index (by
// the documents' imgFile/pageFile) are ever read.
#include <xapian.h>

#include <string>

#include "server/api.hpp"

namespace strata::server {

struct ReplayReply {
  int status = 404;
  std::string body;
  std::string content_type = "application/json; charset=UTF-8";
  bool sandbox = false;
};

// `target` = the part after "/wayback/": "20200316144708im_/https://x.pt/a.png?b=1".
ReplayReply replay(Xapian::Database& db, const std::string& target);

// The search interface's thumbnail: `target` = "{14-digit ts}/{image url}". The replayed
// image (no thumbnail store yet); with safe_only, 403 for images safe search hides.
ReplayReply thumbnail(Xapian::Database& db, const std::string& target, bool safe_only);

}  // namespace strata::server
