#include "archive/header_pool.hpp"

#include <utility>

namespace strata::archive {

void HeaderPool::recycle(std::vector<Header>& headers) {
  // The lines taken by add() were moved out of spare_, leaving empty pairs: those go with
  // the swap, and the full lines of `headers` become the spares.
  spare_.swap(headers);
  headers.clear();
  next_ = 0;
}

void HeaderPool::add(std::vector<Header>& headers, std::string_view name, std::string_view value) {
  if (next_ == spare_.size()) {
    headers.emplace_back(name, value);
    return;
  }
  Header& line = spare_[next_++];
  line.first.assign(name);
  line.second.assign(value);
  headers.push_back(std::move(line));
}

void add_header(std::vector<Header>& headers, HeaderPool* pool, std::string_view name,
                std::string_view value) {
  if (pool)
    pool->add(headers, name, value);
  else
    headers.emplace_back(name, value);
}

}  // namespace strata::archive
