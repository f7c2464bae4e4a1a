#pragma once
// Aligned text tables for the reports commands print at the end of a run: the first column
// left-aligned, the others right-aligned (numbers line up), an optional header line.
#include <cstdint>
#include <string>
#include <vector>

namespace strata {

class Table {
 public:
  explicit Table(std::vector<std::string> header = {}) : header_(std::move(header)) {}
  void add_row(std::vector<std::string> cells) { rows_.push_back(std::move(cells)); }
  bool empty() const { return rows_.empty(); }
  // One line per row (and the header), each starting with `indent`, no trailing spaces.
  std::string render(const std::string& indent = "") const;

 private:
  std::vector<std::string> header_;
  std::vector<std::vector<std::string>> rows_;
};

// "81,440": whole numbers with thousands separators.
std::string format_count(int64_t n);

// Whole values as format_count; others with three significant digits ("0.421", "12.3"),
// or one decimal from 100 up ("1234.5").
std::string format_number(double value);

}  // namespace strata
