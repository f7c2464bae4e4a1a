#pragma once
// Archived bytes never run as active content on the service's origin. Every archived byte
// (/wayback, /thumbnail) is served with kArchivedContentPolicy (sandbox: no scripts, an
// opaque origin; default-src 'none': no fetches, frames or plugins) and nosniff, under a
// Content-Type checked against the bytes: an image route serves only what sniffs as an
// image, as that image type (SVG included: the policy disarms its scripts); a page route
// only HTML. Anything else is a download (application/octet-stream, attachment).
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace strata::server {

inline constexpr const char* kArchivedContentPolicy =
    "sandbox; default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'";

using Headers = std::vector<std::pair<std::string, std::string>>;

struct ServedType {
  std::string content_type;
  Headers headers;  // the policy, and Content-Disposition for downloads
};

// An image capture's payload (declared type ignored: the bytes decide).
ServedType served_image_type(std::string_view payload);

// A page capture with its declared Content-Type.
ServedType served_page_type(std::string_view declared);

// The policy alone (thumbnails: the service's own images).
Headers archived_content_headers();

}  // namespace strata::server
