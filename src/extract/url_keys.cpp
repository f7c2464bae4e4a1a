#include "extract/url_keys.hpp"

#include "url/url.hpp"

namespace strata::extract {

UrlKeys::Keys& UrlKeys::entry(const std::string& url) {
  auto it = keys_.find(url);
  if (it != keys_.end()) return it->second;
  if (keys_.size() >= kMaxUrls) keys_.clear();
  Keys& keys = keys_[url];
  keys.surt = url::surt(url);
  return keys;
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
