#pragma once
// Date bounds of the from/to parameters: yyyy, yyyyMM, yyyyMMdd, yyyyMMddHH, yyyyMMddHHmm or
// yyyyMMddHHmmss. A lower bound is the first second of the period, an upper bound its last
// (20240101 as `to` means up to 2024-01-01 23:59:59). Unlike Arquivo, 8-digit dates are read
// as days, and every bound is checked (nullopt for anything else).
#include <optional>
#include <string>
#include <string_view>

namespace strata::search {

std::optional<std::string> parse_lower_bound(std::string_view text);
std::optional<std::string> parse_upper_bound(std::string_view text);
// Days of a month (1-12) of the Gregorian calendar.
int days_in_month(int year, int month);

}  // namespace strata::search
