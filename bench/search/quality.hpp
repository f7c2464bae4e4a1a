#pragma once
// Ranking quality on the judged queries of a sample archive (`strata sample` writes
// truth/documents.jsonl and truth/queries.jsonl): binary relevance, averaged over queries.
#include <filesystem>
#include <string>

#include "search/request.hpp"

namespace strata::bench {

struct Quality {
  size_t queries = 0;
  double mrr = 0;     // mean reciprocal rank of the first relevant hit (top 50)
  double p10 = 0;     // precision at 10
  double ndcg10 = 0;  // nDCG at 10
};

// Indexes the sample's truth documents into `index_dir` (if not there yet) and evaluates.
Quality evaluate(const std::filesystem::path& sample_dir, const std::filesystem::path& index_dir);

std::string describe(const Quality& q);

}  // namespace strata::bench
