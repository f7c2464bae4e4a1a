#pragma once
// Every result of a search, in the API's order, one page at a time (search::search with a
// growing offset, no years facet), so only a page of documents is ever held.
#include <xapian.h>

#include <cstdint>
#include <vector>

#include "search/searcher.hpp"

namespace strata::exporter {

class ResultPages {
 public:
  static constexpr unsigned kPageSize = 500;
  // Runs the first page now (throws search::RequestError); `limit` 0: no limit.
  ResultPages(Xapian::Database& db, const search::IndexParts& parts, search::SearchRequest request,
              uint64_t limit);
  uint64_t total() const { return total_; }
  // The next page's hits; empty at the end.
  std::vector<search::Hit> next();

 private:
  Xapian::Database& db_;
  const search::IndexParts& parts_;
  search::SearchRequest request_;
  uint64_t limit_, total_ = 0, handed_ = 0;
  std::vector<search::Hit> first_;
  bool done_ = false;
};

}  // namespace strata::exporter
