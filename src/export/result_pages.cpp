#include "export/result_pages.hpp"

#include <algorithm>

namespace strata::exporter {

ResultPages::ResultPages(Xapian::Database& db, const search::IndexParts& parts,
                         search::SearchRequest request, uint64_t limit)
    : db_(db), parts_(parts), request_(std::move(request)), limit_(limit) {
  request_.years_facet = false;
  request_.offset = 0;
  request_.max_items = kPageSize;
  auto first = search::search(db_, parts_, request_);
  total_ = first.total;
  first_ = std::move(first.hits);
}

std::vector<search::Hit> ResultPages::next() {
  if (done_) return {};
  std::vector<search::Hit> hits;
  if (handed_ == 0) {
    hits = std::move(first_);
  } else {
    request_.offset = static_cast<unsigned>(handed_);
    hits = search::search(db_, parts_, request_).hits;
  }
  if (hits.size() < kPageSize) done_ = true;
  if (limit_ && handed_ + hits.size() >= limit_) {
    hits.resize(static_cast<size_t>(std::min<uint64_t>(hits.size(), limit_ - handed_)));
    done_ = true;
  }
  handed_ += hits.size();
  return hits;
}

}  // namespace strata::exporter
