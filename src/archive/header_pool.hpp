#pragma once
// Header lines whose strings live on from one record to the next: a reader parses ~20 header
// lines per record, most of them too long for a string's inline buffer, so fresh strings
// cost two allocations per line.
#include <cstddef>
#include <string_view>
#include <vector>

#include "archive/record.hpp"

namespace strata::archive {

class HeaderPool {
 public:
  // Empties `headers`, keeping its lines aside for add().
  void recycle(std::vector<Header>& headers);
  // Appends a line to `headers`, reusing a kept line's strings when one is left.
  void add(std::vector<Header>& headers, std::string_view name, std::string_view value);

 private:
  std::vector<Header> spare_;
  size_t next_ = 0;  // spare_[next_...] still hold their strings
};

// pool->add, or a plain append without a pool.
void add_header(std::vector<Header>& headers, HeaderPool* pool, std::string_view name,
                std::string_view value);

}  // namespace strata::archive
