#pragma once
// CSV (RFC 4180) rows of response items: a list value (imgAlt, collection...) is joined with
// " | ", a missing one is empty, a cell with a comma, quote, CR or LF is quoted.
#include <string>
#include <vector>

#include "core/json.hpp"

namespace strata::exporter {

std::string csv_cell(const Json& value);
// "a,b,c\r\n"
std::string csv_line(const std::vector<std::string>& cells);
// The row of `item` (an API response item) for `fields`.
std::vector<std::string> csv_cells(const Json& item, const std::vector<std::string>& fields);

}  // namespace strata::exporter
