#pragma once
// The SURT and URL tokens of the URLs one extraction job meets, remembered: a site's logo,
// icons and layout images are referenced from every page and revisited in every crawl, and
// their keys are costly to compute (Heritrix's fixup rules, one allocation per step).
#include <string>
#include <string_view>
#include <unordered_map>

namespace strata::extract {

class UrlKeys {
 public:
  const std::string& surt(const std::string& url) { return entry(url).surt; }
  const std::string& tokens(const std::string& url);

 private:
  struct Keys {
    std::string surt;
    std::string tokens;
    bool has_tokens = false;
  };
  Keys& entry(const std::string& url);

  // Forgotten all at once when full: memory stays bounded whatever the input.
  static constexpr size_t kMaxUrls = 1 << 14;
  std::unordered_map<std::string, Keys> keys_;
};

}  // namespace strata::extract
