#pragma once
// The report a command prints at the end of a run is one JSON object (ordered as built);
// --json prints it as is, and report_text() lays it out as aligned tables for people:
//   - scalar members: one "name  value" table (counts with thousands separators)
//   - object members: a section titled "name:", laid out the same way, indented
//   - arrays of objects: one table with a column per key (e.g. merge's Table 2)
//   - arrays of scalars: one value per line (e.g. problems as file:offset lines)
#include <string>

#include "core/json.hpp"

namespace strata {

std::string report_text(const Json& report);

// One value as report_text() shows it in a cell.
std::string report_cell(const Json& value);

}  // namespace strata
