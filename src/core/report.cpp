#include "core/report.hpp"

#include <algorithm>

#include "core/table.hpp"

namespace strata {
namespace {

constexpr const char* kStep = "  ";

bool is_scalar(const Json& j) {
  return !j.is_object() && !j.is_array();
}

bool is_table(const Json& j) {
  if (!j.is_array() || j.empty()) return false;
  for (const auto& row : j)
    if (!row.is_object()) return false;
  return true;
}

std::string object_rows_text(const Json& rows, const std::string& indent) {
  std::vector<std::string> columns;
  for (const auto& row : rows)
    for (const auto& [key, value] : row.items())
      if (std::find(columns.begin(), columns.end(), key) == columns.end()) columns.push_back(key);
  Table table(columns);
  for (const auto& row : rows) {
    std::vector<std::string> cells;
    for (const auto& column : columns)
      cells.push_back(row.contains(column) ? report_cell(row[column]) : "-");
    table.add_row(std::move(cells));
  }
  return table.render(indent);
}

std::string section_text(const Json& j, const std::string& indent) {
  Table scalars;
  for (const auto& [key, value] : j.items())
    if (is_scalar(value)) scalars.add_row({key, report_cell(value)});
  std::string out = scalars.render(indent);
  for (const auto& [key, value] : j.items()) {
    if (is_scalar(value)) continue;
    out += indent + key + ":";
    if (value.empty()) {
      out += " -\n";
      continue;
    }
    out += '\n';
    if (value.is_object()) {
      out += section_text(value, indent + kStep);
    } else if (is_table(value)) {
      out += object_rows_text(value, indent + kStep);
    } else {
      for (const auto& item : value) out += indent + kStep + report_cell(item) + '\n';
    }
  }
  return out;
}

}  // namespace

std::string report_cell(const Json& value) {
  if (value.is_null()) return "-";
  if (value.is_string()) return value.get<std::string>();
  if (value.is_boolean()) return value.get<bool>() ? "yes" : "no";
  if (value.is_number_unsigned()) return format_count(static_cast<int64_t>(value.get<uint64_t>()));
  if (value.is_number_integer()) return format_count(value.get<int64_t>());
  if (value.is_number_float()) return format_number(value.get<double>());
  return value.dump();
}

std::string report_text(const Json& report) {
  if (!report.is_object()) return report_cell(report) + '\n';
  return section_text(report, "");
}

}  // namespace strata
