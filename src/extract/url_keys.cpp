#include "extract/url_keys.hpp"

#include "url/url.hpp"

namespace strata::extract {

UrlKeys::Entry& UrlKeys::entry(const std::string& url) {
  if (keys_.size() >= kMaxUrls && !keys_.contains(url)) keys_.clear();
  auto [it, added] = keys_.try_emplace(url);  // one lookup for a hit or a miss
  if (added) it->second.keys.surt = url::join_surt(url);
  return it->second;
}

const UrlKeys::Keys& UrlKeys::surt_and_tokens(const std::string& url) {
  Entry& found = entry(url);
  if (!found.has_tokens) {
    found.keys.tokens = url::url_tokens(url);
    found.has_tokens = true;
  }
  return found.keys;
}

}  // namespace strata::extract
