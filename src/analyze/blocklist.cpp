#include "analyze/blocklist.hpp"

#include <unistd.h>

#include <algorithm>
#include <fstream>

namespace strata::analyze {
namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return char(std::tolower(c)); });
  return out;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

// "http://www.x.pt/a" -> "x.pt/a" (scheme and one leading www. dropped) for prefix tests.
std::string_view bare(std::string_view url) {
  if (const auto p = url.find("://"); p != std::string_view::npos && p < 10)
    url.remove_prefix(p + 3);
  if (url.size() > 4 && lower(url.substr(0, 4)) == "www.") url.remove_prefix(4);
  return url;
}

bool prefix_match(std::string_view url, std::string_view prefix) {
  return url.starts_with(prefix) || bare(url).starts_with(bare(prefix));
}

bool host_match(const std::string& host, const std::string& pattern) {
  if (host.empty()) return false;
  return host == pattern || (host.size() > pattern.size() && host.ends_with(pattern) &&
                             host[host.size() - pattern.size() - 1] == '.');
}

}  // namespace

std::string url_host(std::string_view url) {
  const auto scheme = url.find("://");
  if (scheme == std::string_view::npos) return {};
  url.remove_prefix(scheme + 3);
  url = url.substr(0, url.find_first_of("/?#"));
  if (const auto at = url.rfind('@'); at != std::string_view::npos) url.remove_prefix(at + 1);
  if (!url.starts_with('[')) url = url.substr(0, url.find(':'));
  return lower(url);
}

std::string BlockPattern::to_string() const {
  const char* prefix = kind == Kind::host ? "host:" : kind == Kind::url ? "url:" : "page:";
  return prefix + value;
}

bool BlockList::parse(std::string_view line, BlockPattern& out) {
  line = trim(line);
  if (line.empty() || line.front() == '#') return false;
  const auto take = [&](std::string_view prefix, BlockPattern::Kind kind) {
    if (!line.starts_with(prefix)) return false;
    out = {kind, std::string(trim(line.substr(prefix.size())))};
    return true;
  };
  if (take("host:", BlockPattern::Kind::host) || take("url:", BlockPattern::Kind::url) ||
      take("page:", BlockPattern::Kind::page)) {
    if (out.kind == BlockPattern::Kind::host) out.value = lower(out.value);
    return !out.value.empty();
  }
  if (line.find('/') == std::string_view::npos)
    out = {BlockPattern::Kind::host, lower(line)};
  else
    out = {BlockPattern::Kind::url, std::string(line)};
  return true;
}

BlockList BlockList::load(const std::filesystem::path& file) {
  BlockList list;
  std::ifstream in(file);
  std::string line;
  BlockPattern p;
  while (std::getline(in, line))
    if (parse(line, p)) list.add(p);
  return list;
}

bool BlockList::save(const std::filesystem::path& file) const {
  std::error_code ec;
  if (file.has_parent_path()) std::filesystem::create_directories(file.parent_path(), ec);
  std::filesystem::path temp = file;
  temp += ".tmp." + std::to_string(::getpid());
  {
    std::ofstream out(temp, std::ios::trunc);
    out << "# strata block list: host:<host> | url:<image URL prefix> | page:<page URL prefix>\n";
    for (const auto& p : patterns_) out << p.to_string() << "\n";
    if (!out.flush()) return false;
  }
  std::filesystem::rename(temp, file, ec);
  return !ec;
}

bool BlockList::add(const BlockPattern& pattern) {
  for (const auto& p : patterns_)
    if (p.kind == pattern.kind && p.value == pattern.value) return false;
  patterns_.push_back(pattern);
  return true;
}

bool BlockList::remove(const BlockPattern& pattern) {
  const auto before = patterns_.size();
  std::erase_if(patterns_, [&](const BlockPattern& p) {
    return p.kind == pattern.kind && p.value == pattern.value;
  });
  return patterns_.size() != before;
}

bool BlockList::blocked(std::string_view image_url, std::string_view page_url) const {
  const std::string image_host = url_host(image_url), page_host = url_host(page_url);
  for (const auto& p : patterns_) {
    switch (p.kind) {
      case BlockPattern::Kind::host:
        if (host_match(image_host, p.value) || host_match(page_host, p.value)) return true;
        break;
      case BlockPattern::Kind::url:
        if (!image_url.empty() && prefix_match(image_url, p.value)) return true;
        break;
      case BlockPattern::Kind::page:
        if (!page_url.empty() && prefix_match(page_url, p.value)) return true;
        break;
    }
  }
  return false;
}

}  // namespace strata::analyze
