#include "core/table.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace strata {
namespace {

size_t display_width(const std::string& s) {
  size_t width = 0;  // UTF-8: count the bytes that start a character
  for (unsigned char c : s) width += (c & 0xC0) != 0x80;
  return width;
}

void pad_to(std::string& line, size_t width) {
  line.append(width, ' ');
}

}  // namespace

std::string Table::render(const std::string& indent) const {
  std::vector<size_t> widths;
  auto measure = [&widths](const std::vector<std::string>& row) {
    if (widths.size() < row.size()) widths.resize(row.size(), 0);
    for (size_t i = 0; i < row.size(); ++i) widths[i] = std::max(widths[i], display_width(row[i]));
  };
  measure(header_);
  for (const auto& row : rows_) measure(row);
  std::string out;
  auto write = [&](const std::vector<std::string>& row) {
    std::string line = indent;
    for (size_t i = 0; i < row.size(); ++i) {
      const size_t gap = widths[i] - display_width(row[i]);
      if (i > 0) line += "  ";
      if (i > 0) pad_to(line, gap);  // right-aligned
      line += row[i];
      if (i == 0 && row.size() > 1) pad_to(line, gap);
    }
    out += line + '\n';
  };
  if (!header_.empty()) write(header_);
  for (const auto& row : rows_) write(row);
  return out;
}

std::string format_count(int64_t n) {
  std::string digits = std::to_string(n < 0 ? -static_cast<uint64_t>(n) : static_cast<uint64_t>(n));
  std::string out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return n < 0 ? "-" + out : out;
}

std::string format_number(double value) {
  if (!std::isfinite(value)) return value != value ? "nan" : (value > 0 ? "inf" : "-inf");
  if (value == std::trunc(value) && std::fabs(value) < 9e15)
    return format_count(static_cast<int64_t>(value));
  char buf[48];
  std::snprintf(buf, sizeof buf, std::fabs(value) >= 100 ? "%.1f" : "%.3g", value);
  return buf;
}

}  // namespace strata
