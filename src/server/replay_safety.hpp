#pragma once
// Archived bytes never run as active content on the service's origin. Every archived byte
// (/wayback, /thumbnail) is served with kArchivedContentPolicy (sandbox: no scripts, an
// opaque origin; default-src 'none': no fetches, frames or plugins) and nosniff, under a
// Content-Type checked against the bytes: an image route serves only what sniffs as an
// image, as that image type (SVG included: the policy disarms its scripts); a page route
// only HTML; stylesheets as CSS, scripts as plain text. Anything else is a download
// (application/octet-stream, attachment).
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace strata::server {

// 'self' is the archive: replay rewrites every URL a page names to /wayback/, so a page's
// images, stylesheets, fonts and frames load from the archive and nothing from elsewhere.
inline constexpr const char* kArchivedContentPolicy =
    "sandbox; default-src 'none'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
    "font-src 'self' data:; media-src 'self'; frame-src 'self'";

// The replay origin's policy (serve --replay-port, docs/replay.md "Isolation"): archived pages
// run their scripts there, under wombat, on an origin of their own (a port the search
// interface does not share), so 'self' is the archive alone: every fetch, script, image,
// style, font, frame and worker comes from the archive and nothing from the live web or the
// search interface. sandbox keeps popups, top navigation of a framing page, plugins and
// forms off; allow-same-origin is what wombat needs (it reads localStorage at start, which
// throws in an opaque origin).
inline constexpr const char* kReplayOriginPolicy =
    "sandbox allow-scripts allow-same-origin; default-src 'none'; "
    "script-src 'self' 'unsafe-inline' 'unsafe-eval'; connect-src 'self'; "
    "img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; font-src 'self' data:; "
    "media-src 'self' blob:; frame-src 'self'; worker-src 'self' blob:; form-action 'self'; "
    "frame-ancestors 'self'";

using Headers = std::vector<std::pair<std::string, std::string>>;

struct ServedType {
  std::string content_type;
  Headers headers;  // the policy, and Content-Disposition for downloads
};

// An image capture's payload (declared type ignored: the bytes decide).
ServedType served_image_type(std::string_view payload);

// A page capture with its declared Content-Type.
ServedType served_page_type(std::string_view declared);

// A rewritten stylesheet (text/css), and a rewritten script: text/plain, so that it never
// runs on the search interface's origin (nosniff refuses it), or with `runs` (the replay
// origin) text/javascript.
ServedType served_stylesheet_type();
ServedType served_script_type(bool runs = false);

// A capture served as it was captured (id_): an image as its sniffed type, HTML as a page,
// CSS as a stylesheet, anything else a download.
ServedType served_raw_type(std::string_view payload, std::string_view declared);

// "text/html" of "Text/HTML; charset=x".
std::string media_type(std::string_view declared);

// The policy alone (thumbnails: the service's own images).
Headers archived_content_headers();

}  // namespace strata::server
