#include "server/static_files.hpp"

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>

namespace strata::server {
namespace fs = std::filesystem;

namespace {

std::string fnv1a_hex(const std::string& s) {
  uint64_t h = 1469598103934665603ULL;
  for (unsigned char c : s) {
    h ^= c;
    h *= 1099511628211ULL;
  }
  static const char* digits = "0123456789abcdef";
  std::string out(16, '0');
  for (int i = 15; i >= 0; --i, h >>= 4) out[static_cast<size_t>(i)] = digits[h & 0xF];
  return out;
}

bool read_file(const fs::path& p, std::string& out) {
  std::ifstream in(p, std::ios::binary);
  if (!in) return false;
  std::ostringstream ss;
  ss << in.rdbuf();
  out = ss.str();
  return true;
}

bool safe_relative(const std::string& rel) {
  if (rel.find('\\') != std::string::npos || rel.find('\0') != std::string::npos) return false;
  size_t start = 0;
  while (start <= rel.size()) {
    size_t end = rel.find('/', start);
    if (end == std::string::npos) end = rel.size();
    std::string seg = rel.substr(start, end - start);
    if (seg == ".." || (!seg.empty() && seg[0] == '.')) return false;
    start = end + 1;
  }
  return true;
}

}  // namespace

fs::path default_web_dir() {
  std::error_code ec;
  if (const char* env = std::getenv("STRATA_WEB_DIR"); env && *env) return fs::path(env);
#ifdef STRATA_WEB_DIR_FALLBACK
  if (fs::is_directory(STRATA_WEB_DIR_FALLBACK, ec)) return fs::path(STRATA_WEB_DIR_FALLBACK);
#endif
  if (fs::is_directory("web/public", ec)) return fs::absolute("web/public", ec);
  return {};
}

std::string mime_type_for(const fs::path& file) {
  static const std::map<std::string, std::string> types = {
      {".html", "text/html; charset=UTF-8"},
      {".js", "text/javascript; charset=UTF-8"},
      {".mjs", "text/javascript; charset=UTF-8"},
      {".css", "text/css; charset=UTF-8"},
      {".json", "application/json; charset=UTF-8"},
      {".svg", "image/svg+xml"},
      {".png", "image/png"},
      {".ico", "image/x-icon"},
      {".webmanifest", "application/manifest+json"},
      {".woff2", "font/woff2"},
      {".txt", "text/plain; charset=UTF-8"},
  };
  auto it = types.find(file.extension().string());
  return it == types.end() ? "application/octet-stream" : it->second;
}

StaticReply serve_static(const fs::path& root, const std::string& path,
                         const std::string& if_none_match) {
  StaticReply r;
  if (root.empty() || path.empty() || path[0] != '/') return r;
  std::string rel = path.substr(1);
  if (size_t q = rel.find_first_of("?#"); q != std::string::npos) rel.resize(q);
  if (!safe_relative(rel)) {
    r.status = 400;
    r.body = "bad path";
    return r;
  }
  std::error_code ec;
  fs::path file = rel.empty() ? root / "index.html" : root / rel;
  if (!fs::is_regular_file(file, ec)) {  // the app lives at "/" only (state in the query)
    r.body = "not found";
    return r;
  }
  fs::path canon_root = fs::weakly_canonical(root, ec);
  fs::path canon = fs::weakly_canonical(file, ec);
  auto [a, b] = std::mismatch(canon_root.begin(), canon_root.end(), canon.begin(), canon.end());
  if (ec || a != canon_root.end() || !fs::is_regular_file(canon, ec)) {
    r.body = "not found";
    return r;
  }
  std::string body;
  if (!read_file(canon, body)) {
    r.body = "not found";
    return r;
  }
  r.etag = "\"" + fnv1a_hex(body) + "\"";
  r.content_type = mime_type_for(canon);
  std::string ext = canon.extension().string();
  r.cache_control =
      (ext == ".html" || ext == ".js" || ext == ".mjs" || ext == ".css" || ext == ".json")
          ? "no-cache"
          : "public, max-age=86400";
  if (!if_none_match.empty() && if_none_match.find(r.etag) != std::string::npos) {
    r.status = 304;
    return r;
  }
  r.status = 200;
  r.body = std::move(body);
  return r;
}

}  // namespace strata::server
