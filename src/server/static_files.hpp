#pragma once
// Static files of the search interface (web/public) served at "/". Pure function of the
// request path and If-None-Match so it can be unit tested. Caching: every reply carries a
// strong ETag (content hash) and answers If-None-Match with 304; HTML, JS and CSS are
// `no-cache` (always revalidated, so a new release is picked up at once), other assets
// (icons, fonts) `public, max-age=86400`.
#include <filesystem>
#include <string>

namespace strata::server {

struct StaticReply {
  int status = 404;
  std::string body;
  std::string content_type = "text/plain; charset=UTF-8";
  std::string etag;
  std::string cache_control;
};

// The folder served at "/": $STRATA_WEB_DIR when set, else the source tree's web/public
// (compiled in), else web/public next to the current directory. Empty when none exists.
std::filesystem::path default_web_dir();

// `path` is the URL path ("/", "/app.js"); "/" maps to index.html, missing files are 404.
// Rejects ".." (400), hidden files (400) and anything outside `root`.
StaticReply serve_static(const std::filesystem::path& root, const std::string& path,
                         const std::string& if_none_match);

std::string mime_type_for(const std::filesystem::path& file);

}  // namespace strata::server
