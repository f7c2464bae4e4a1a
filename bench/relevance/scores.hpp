#pragma once
// Scores of one ranked list against a judged query, and their sums over queries.
#include <set>
#include <string>
#include <vector>

#include "judged.hpp"
#include "search/searcher.hpp"

namespace strata::bench {

inline constexpr int kRelevantGrade = 2;  // precision counts grades >= 2
inline constexpr int kSamePicture = 8;    // pHash distance of a repeated picture (of 64 bits)

struct Scores {
  size_t queries = 0;
  double p5 = 0, p10 = 0, ndcg10 = 0;  // sums until averaged()
  size_t repeated = 0;                 // top-10 hits showing a picture already shown above them
  size_t layout = 0;                   // judged decorative images in top 10s
  size_t layout_queries = 0;
  size_t unanswered = 0;  // queries with no judged image in their top 10 though some exist
  std::vector<std::string> unanswered_queries;

  void add(const JudgedQuery& q, const std::vector<search::Hit>& top10,
           const std::set<std::string>& layout_urls);
  Scores averaged() const;
};

}  // namespace strata::bench
