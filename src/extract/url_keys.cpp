#include "extract/url_keys.hpp"

#include "url/url.hpp"

namespace strata::extract {

UrlKeys::Keys& UrlKeys::entry(const std::string& url) {
  if (keys_.size() >= kMaxUrls && !keys_.contains(url)) keys_.clear();
  auto [it, added] = keys_.try_emplace(url);  // one lookup for a hit or a miss
  if (added) it->second.surt = url::surt(url);
  return it->second;
}

const std::string& UrlKeys::tokens(const std::string& url) {
  Keys& keys = entry(url);
  if (!keys.has_tokens) {
    keys.tokens = url::url_tokens(url);
    keys.has_tokens = true;
  }
  return keys.tokens;
}

}  // namespace strata::extract
