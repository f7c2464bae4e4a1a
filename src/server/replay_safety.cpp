#include "server/replay_safety.hpp"

#include <algorithm>
#include <cctype>

#include "extract/mime_sniff.hpp"

namespace strata::server {
namespace {

ServedType download() {
  ServedType t{"application/octet-stream", archived_content_headers()};
  t.headers.emplace_back("Content-Disposition", "attachment");
  return t;
}

}  // namespace

std::string media_type(std::string_view declared) {
  std::string m(declared.substr(0, declared.find(';')));
  m.erase(std::remove_if(m.begin(), m.end(), [](unsigned char c) { return std::isspace(c); }),
          m.end());
  std::transform(m.begin(), m.end(), m.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return m;
}

Headers archived_content_headers() {
  return {{"Content-Security-Policy", kArchivedContentPolicy}};
}

ServedType served_image_type(std::string_view payload) {
  std::string sniffed = extract::sniff_image_mime(payload);
  if (sniffed.empty()) return download();
  return {sniffed, archived_content_headers()};
}

ServedType served_page_type(std::string_view declared) {
  std::string m = media_type(declared);
  if (m != "text/html" && m != "application/xhtml+xml") return download();
  return {std::string(declared), archived_content_headers()};
}

ServedType served_stylesheet_type() {
  return {"text/css", archived_content_headers()};
}

ServedType served_script_type(bool runs) {
  return {runs ? "text/javascript" : "text/plain", archived_content_headers()};
}

ServedType served_raw_type(std::string_view payload, std::string_view declared) {
  if (!extract::sniff_image_mime(payload).empty()) return served_image_type(payload);
  if (media_type(declared) == "text/css") return served_stylesheet_type();
  return served_page_type(declared);
}

}  // namespace strata::server
