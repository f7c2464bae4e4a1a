#include "scores.hpp"

#include <algorithm>
#include <cmath>
#include <functional>

#include "analyze/phash.hpp"

namespace strata::bench {
namespace {

double discount(size_t rank) {
  return 1 / std::log2(static_cast<double>(rank) + 2);
}

double gain(int grade) {
  return std::pow(2.0, grade) - 1;
}

// The ideal list: every judged image, best grades first (whatever the index holds).
double ideal_dcg(const JudgedQuery& q) {
  std::vector<int> grades;
  for (const auto& [url, g] : q.grade) grades.push_back(g);
  std::sort(grades.begin(), grades.end(), std::greater<>());
  double dcg = 0;
  for (size_t i = 0; i < std::min<size_t>(10, grades.size()); ++i)
    dcg += gain(grades[i]) * discount(i);
  return dcg;
}

bool repeats_above(const std::vector<search::Hit>& hits, size_t i) {
  const auto& mine = hits[i].moderation.phash;
  if (!mine) return false;
  for (size_t k = 0; k < i; ++k) {
    const auto& other = hits[k].moderation.phash;
    if (other && analyze::hamming_distance(*mine, *other) <= kSamePicture) return true;
  }
  return false;
}

}  // namespace

void Scores::add(const JudgedQuery& q, const std::vector<search::Hit>& top10,
                 const std::set<std::string>& layout_urls) {
  ++queries;
  double dcg = 0;
  size_t relevant5 = 0, relevant10 = 0, decorative = 0;
  for (size_t i = 0; i < top10.size() && i < 10; ++i) {
    // A picture shown again (another copy of a hit above) tells the user nothing new: it
    // earns no gain and counts as not relevant, whichever ranking repeats it.
    const bool repeat = repeats_above(top10, i);
    auto it = q.grade.find(top10[i].doc.imgUrl);
    const int g = repeat || it == q.grade.end() ? 0 : it->second;
    dcg += gain(g) * discount(i);
    if (g >= kRelevantGrade) {
      ++relevant10;
      if (i < 5) ++relevant5;
    }
    if (repeat) ++repeated;
    if (layout_urls.count(top10[i].doc.imgUrl)) ++decorative;
  }
  p5 += static_cast<double>(relevant5) / 5;
  p10 += static_cast<double>(relevant10) / 10;
  const double ideal = ideal_dcg(q);
  ndcg10 += ideal > 0 ? dcg / ideal : 0;
  layout += decorative;
  layout_queries += decorative > 0;
  if (ideal > 0 && dcg == 0) {
    ++unanswered;
    unanswered_queries.push_back(q.query);
  }
}

Scores Scores::averaged() const {
  Scores out = *this;
  const double n = queries ? static_cast<double>(queries) : 1;
  out.p5 /= n;
  out.p10 /= n;
  out.ndcg10 /= n;
  return out;
}

}  // namespace strata::bench
