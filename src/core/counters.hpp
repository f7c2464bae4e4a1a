#pragma once
// Named counters (records read, images too small, ...). Each worker thread owns one
// Counters and they are merged at the end, so counting never needs a lock.
#include <cstdint>
#include <map>
#include <string>

#include "core/json.hpp"

namespace strata {

class Counters {
 public:
  void add(const std::string& name, int64_t n = 1) { values_[name] += n; }
  int64_t get(const std::string& name) const;
  void merge(const Counters& other);
  const std::map<std::string, int64_t>& values() const { return values_; }
  Json to_json() const;
  // Aligned "name  value" lines, for the summary at the end of a run.
  std::string to_text(const std::string& indent = "  ") const;

 private:
  std::map<std::string, int64_t> values_;
};

}  // namespace strata
