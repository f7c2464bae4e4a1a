#pragma once
// Moderation block list, one pattern per line, kept beside the index (<index>/blocklist.txt)
// and applied at query time, so it can change without re-indexing:
//   host:example.com          image or page host is example.com or a subdomain of it
//   url:http://x.pt/private/  image URL starts with the prefix
//   page:http://x.pt/forum/   page URL starts with the prefix
// Blank lines and lines starting with '#' are ignored. Host matching is case-insensitive;
// prefixes are compared as written, also without their scheme and a leading "www.".
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace strata::analyze {

struct BlockPattern {
  enum class Kind { host, url, page };
  Kind kind = Kind::host;
  std::string value;
  std::string to_string() const;  // "host:example.com"
};

class BlockList {
 public:
  // Parses "kind:value" (a bare value is a host when it has no '/', else a URL prefix).
  static bool parse(std::string_view line, BlockPattern& out);

  static BlockList load(const std::filesystem::path& file);  // empty when missing
  bool save(const std::filesystem::path& file) const;        // atomic (temp + rename)

  bool add(const BlockPattern& pattern);     // false when already present
  bool remove(const BlockPattern& pattern);  // false when absent
  const std::vector<BlockPattern>& patterns() const { return patterns_; }

  bool blocked(std::string_view image_url, std::string_view page_url) const;

 private:
  std::vector<BlockPattern> patterns_;
};

// Lower-cased host of an absolute URL ("" when none).
std::string url_host(std::string_view url);

}  // namespace strata::analyze
