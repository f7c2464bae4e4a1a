#pragma once
// The join SURT (url::join_surt) and URL tokens of the URLs one extraction job meets, remembered: a
// site's logo, icons and layout images are referenced from every page and revisited in every crawl,
// and their keys are costly to compute (Heritrix's fixup rules, one allocation per step).
#include <string>
#include <string_view>
#include <unordered_map>

namespace strata::extract {

class UrlKeys {
 public:
  struct Keys {
    std::string surt;
    std::string tokens;
  };
  const std::string& surt(const std::string& url) { return entry(url).keys.surt; }
  // Both keys from one look-up: a page's references need both.
  const Keys& surt_and_tokens(const std::string& url);

 private:
  struct Entry {
    Keys keys;
    bool has_tokens = false;  // tokens are computed when first asked for
  };
  Entry& entry(const std::string& url);

  // Forgotten all at once when full: memory stays bounded whatever the input (~10 MiB).
  static constexpr size_t kMaxUrls = 1 << 15;
  std::unordered_map<std::string, Entry> keys_;
};

}  // namespace strata::extract
