#pragma once
// The query truth: which documents hold both words of each topic query.
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "merge/document.hpp"
#include "sample/truth.hpp"

namespace strata::sample {

// The documents holding each topic word, for judging the queries once all documents are
// known (an inverted index: documents times topics would be quadratic at bench scale). Only
// topic words are indexed, found through a hash table that is never iterated (so its order
// cannot reach the output).
class WordIndex {
 public:
  WordIndex();
  void add(const merge::ImageDocument& d);  // documents in id order
  size_t documents() const { return ids_.size(); }
  // Every topic query with the documents holding both its words.
  std::vector<QueryTruth> judge_queries() const;

 private:
  const std::vector<size_t>& docs(const std::string& word) const {
    return docs_with_[topic_word_.at(word)];
  }

  std::vector<std::string> ids_;                             // document ids, in order
  std::unordered_map<std::string_view, size_t> topic_word_;  // word -> its docs_with_ entry
  std::vector<std::vector<size_t>> docs_with_;               // document indexes, ascending
};

}  // namespace strata::sample
