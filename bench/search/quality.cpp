#include "quality.hpp"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <set>

#include "core/json.hpp"
#include "index/index_documents.hpp"
#include "search/searcher.hpp"

namespace strata::bench {
namespace {

struct Judged {
  std::string query;
  std::set<std::string> relevant;
};

std::vector<Judged> read_judged(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::vector<Judged> out;
  for (std::string line; std::getline(in, line);) {
    Json j = Json::parse(line);
    Judged q{j["query"].get<std::string>(), {}};
    for (const auto& d : j["relevant"]) q.relevant.insert(d.get<std::string>());
    if (!q.relevant.empty()) out.push_back(std::move(q));
  }
  return out;
}

void add_scores(const search::SearchResult& r, const std::set<std::string>& relevant,
                Quality& sum) {
  double dcg = 0, ideal = 0;
  bool first = true;
  for (size_t i = 0; i < r.hits.size(); ++i) {
    if (!relevant.count(r.hits[i].doc.id)) continue;
    if (first) sum.mrr += 1 / static_cast<double>(i + 1);
    first = false;
    if (i >= 10) break;
    sum.p10 += 0.1;
    dcg += 1 / std::log2(static_cast<double>(i) + 2);
  }
  for (size_t i = 0; i < std::min<size_t>(10, relevant.size()); ++i)
    ideal += 1 / std::log2(static_cast<double>(i) + 2);
  sum.ndcg10 += dcg / ideal;
}

}  // namespace

Quality evaluate(const std::filesystem::path& sample_dir, const std::filesystem::path& index_dir) {
  if (!std::filesystem::exists(index_dir)) {
    index::IndexOptions options;
    options.index_dir = index_dir;
    options.collection = "sample";
    options.inputs = {sample_dir / "truth" / "documents.jsonl"};
    index::index_documents(options);
  }
  Xapian::Database db(index_dir.string());
  Quality sum;
  for (const Judged& q : read_judged(sample_dir / "truth" / "queries.jsonl")) {
    search::SearchRequest request;
    request.q = q.query;
    request.safe = false;
    add_scores(search::search(db, request), q.relevant, sum);
    ++sum.queries;
  }
  if (sum.queries == 0) return sum;
  const double n = static_cast<double>(sum.queries);
  sum.mrr /= n;
  sum.p10 /= n;
  sum.ndcg10 /= n;
  return sum;
}

std::string describe(const Quality& q) {
  char buf[120];
  std::snprintf(buf, sizeof buf, "%zu judged queries  MRR %.4f  P@10 %.4f  nDCG@10 %.4f", q.queries,
                q.mrr, q.p10, q.ndcg10);
  return buf;
}

}  // namespace strata::bench
