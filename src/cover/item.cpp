#include "cover/item.hpp"

#include <algorithm>
#include <string_view>

#include "merge/key_hash.hpp"

namespace strata::cover {
namespace {

bool word_byte(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c >= 0x80;
}

}  // namespace

std::vector<uint64_t> word_shingles(const std::string& text, int k) {
  std::vector<std::string> words;
  for (size_t i = 0; i < text.size();) {
    while (i < text.size() && !word_byte(static_cast<unsigned char>(text[i]))) ++i;
    size_t start = i;
    while (i < text.size() && word_byte(static_cast<unsigned char>(text[i]))) ++i;
    if (i == start) continue;
    std::string w = text.substr(start, i - start);
    std::transform(w.begin(), w.end(), w.begin(), [](char c) {
      return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
    });
    words.push_back(std::move(w));
  }
  std::vector<uint64_t> out;
  const size_t n = std::max<size_t>(1, static_cast<size_t>(std::max(1, k)));
  for (size_t i = 0; i + n <= words.size() || (i == 0 && !words.empty()); ++i) {
    std::string shingle;
    for (size_t j = i; j < std::min(words.size(), i + n); ++j) shingle += words[j] + ' ';
    out.push_back(merge::key_hash(shingle));
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  out.shrink_to_fit();  // an offline cover holds one per document: no spare capacity
  return out;
}

}  // namespace strata::cover
