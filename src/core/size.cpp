#include "core/size.hpp"

#include <cctype>
#include <charconv>
#include <cmath>

namespace strata {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

// The multiplier of a unit ("", "K", "KiB", "KB", ...); 0 when it is not one.
double multiplier(std::string_view unit) {
  if (unit.empty() || unit == "B" || unit == "b") return 1;
  static constexpr std::string_view kLetters = "kmgtp";
  const auto power = kLetters.find(static_cast<char>(std::tolower(unit.front())));
  if (power == std::string_view::npos) return 0;
  std::string rest;
  for (char c : unit.substr(1)) rest += static_cast<char>(std::tolower(c));
  const double exponent = static_cast<double>(power + 1);
  if (rest.empty() || rest == "ib") return std::pow(1024.0, exponent);
  if (rest == "b") return std::pow(1000.0, exponent);
  return 0;
}

}  // namespace

std::optional<uint64_t> parse_size(std::string_view text) {
  text = trim(text);
  size_t digits = 0;
  while (digits < text.size() &&
         (std::isdigit(static_cast<unsigned char>(text[digits])) || text[digits] == '.'))
    ++digits;
  if (digits == 0) return std::nullopt;
  const std::string_view number = text.substr(0, digits);
  const double unit = multiplier(trim(text.substr(digits)));
  if (unit == 0) return std::nullopt;
  if (number.find('.') == std::string_view::npos) {  // exact for whole numbers of bytes
    uint64_t value = 0;
    auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), value);
    if (ec != std::errc() || end != number.data() + number.size()) return std::nullopt;
    const auto factor = static_cast<uint64_t>(unit);
    if (value > UINT64_MAX / factor) return std::nullopt;
    return value * factor;
  }
  double value = 0;
  auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), value);
  if (ec != std::errc() || end != number.data() + number.size()) return std::nullopt;
  const double bytes = std::floor(value * unit);
  if (!(bytes < 18446744073709551616.0)) return std::nullopt;
  return static_cast<uint64_t>(bytes);
}

}  // namespace strata
