#include "search/redundancy.hpp"

#include <algorithm>

#include "cover/cover.hpp"
#include "cover/documents.hpp"

namespace strata::search {

void cover_results(SearchResult& result, const SearchRequest& request) {
  const auto uses = cover::attributes_used(*request.redundancy);
  std::vector<cover::Item> items;
  items.reserve(result.hits.size());
  for (const Hit& hit : result.hits) {
    items.push_back(cover::item_from_document(hit.doc, hit.moderation, uses));
    items.back().set(cover::NumberAttr::rank, static_cast<double>(items.size() - 1));
  }
  cover::CoverResult c;
  try {
    c = cover::compute_cover(
        *request.redundancy, items,
        {.pair_budget = kRedundancyPairBudget, .ilp_time_ms = kRedundancyIlpMs});
  } catch (const cover::CoverError& e) {
    throw RequestError("redundancy", e.what());
  }

  RedundancySummary summary;
  summary.expression = cover::to_string(*request.redundancy);
  summary.window = items.size();
  summary.kept = c.kept;
  summary.exact_components = c.exact_components;
  summary.ilp_components = c.ilp_components;
  summary.greedy_components = c.greedy_components;
  summary.capped = c.capped_items;
  summary.greedy_bound = c.greedy_bound;
  summary.candidates = c.method;
  result.redundancy = summary;

  std::vector<Hit> shown;
  uint32_t expand_index = UINT32_MAX;
  if (!request.expand.empty())
    for (uint32_t k = 0; k < result.hits.size() && expand_index == UINT32_MAX; ++k)
      if (result.hits[k].doc.id == request.expand) expand_index = k;
  for (uint32_t k = 0; k < result.hits.size(); ++k) {
    const bool wanted = request.expand.empty() ? c.keeper[k] == k
                                               : c.keeper[k] == expand_index && k != expand_index;
    if (wanted) {
      result.hits[k].covers = c.covers[k];
      shown.push_back(std::move(result.hits[k]));
    }
  }
  const size_t from = std::min<size_t>(request.offset, shown.size());
  const size_t to = std::min<size_t>(from + request.max_items, shown.size());
  result.hits.assign(std::make_move_iterator(shown.begin() + static_cast<std::ptrdiff_t>(from)),
                     std::make_move_iterator(shown.begin() + static_cast<std::ptrdiff_t>(to)));
}

}  // namespace strata::search
