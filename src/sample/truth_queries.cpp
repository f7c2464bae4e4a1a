#include "sample/truth_queries.hpp"

#include <algorithm>
#include <cctype>
#include <iterator>

namespace strata::sample {
namespace {

std::vector<std::string> words_of(const merge::ImageDocument& d) {
  std::string text = d.pageTitle;
  for (const auto* list : {&d.imgTitle, &d.imgAlt, &d.imgCaption})
    for (const auto& v : *list) text += " " + v;
  std::vector<std::string> out;
  std::string cur;
  for (char c : text) {
    unsigned char u = static_cast<unsigned char>(c);
    if (u >= 0x80 || std::isalnum(u))
      cur += static_cast<char>(u < 0x80 ? std::tolower(u) : u);
    else if (!cur.empty())
      out.push_back(cur), cur.clear();
  }
  if (!cur.empty()) out.push_back(cur);
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

WordIndex::WordIndex() {
  for (const Topic& t : all_topics())
    for (const std::string* word : {&t.a, &t.b})
      if (topic_word_.emplace(*word, docs_with_.size()).second) docs_with_.emplace_back();
}

void WordIndex::add(const merge::ImageDocument& d) {
  std::vector<std::string> words = words_of(d);
  words.erase(std::unique(words.begin(), words.end()), words.end());
  for (const std::string& word : words)
    if (auto it = topic_word_.find(word); it != topic_word_.end())
      docs_with_[it->second].push_back(ids_.size());
  ids_.push_back(d.id);
}

std::vector<QueryTruth> WordIndex::judge_queries() const {
  std::vector<QueryTruth> out;
  for (const Topic& t : all_topics()) {
    const std::vector<size_t>&a = docs(t.a), &b = docs(t.b);
    std::vector<size_t> both;
    std::set_intersection(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(both));
    if (both.empty()) continue;
    QueryTruth q{t.query(), t.lang == Lang::pt ? "pt" : "en", {}};
    for (size_t i : both) q.relevant.push_back(ids_[i]);
    out.push_back(std::move(q));
  }
  return out;
}

}  // namespace strata::sample
