#pragma once
// Named counters (records read, images too small, ...). Each worker thread owns one
// Counters and they are merged at the end, so counting never needs a lock.
#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "core/json.hpp"

namespace strata {

class Counters {
 public:
  // Looks the name up without building a string: extraction counts several things per
  // reference, and a std::string per call showed in its profile.
  void add(std::string_view name, int64_t n = 1) {
    auto it = values_.find(name);
    if (it == values_.end()) it = values_.emplace(name, 0).first;
    it->second += n;
  }
  int64_t get(std::string_view name) const;
  void merge(const Counters& other);
  const std::map<std::string, int64_t, std::less<>>& values() const { return values_; }
  Json to_json() const;
  // Aligned "name  value" lines, for the summary at the end of a run.
  std::string to_text(const std::string& indent = "  ") const;

 private:
  std::map<std::string, int64_t, std::less<>> values_;
};

}  // namespace strata
