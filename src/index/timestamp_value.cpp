#include "index/timestamp_value.hpp"

namespace strata::index {
namespace {

unsigned digit_at(std::string_view s, size_t i) {
  return i < s.size() && s[i] >= '0' && s[i] <= '9' ? static_cast<unsigned>(s[i] - '0') : 0;
}

}  // namespace

std::string pack_timestamp(std::string_view timestamp) {
  std::string packed(kTimestampDigits / 2, '\0');
  for (size_t i = 0; i < packed.size(); ++i)
    packed[i] = static_cast<char>(digit_at(timestamp, 2 * i) << 4 | digit_at(timestamp, 2 * i + 1));
  return packed;
}

std::string unpack_timestamp(std::string_view packed) {
  std::string digits;
  for (const char c : packed) {
    const auto byte = static_cast<unsigned char>(c);
    digits += static_cast<char>('0' + (byte >> 4));
    digits += static_cast<char>('0' + (byte & 0x0F));
  }
  return digits;
}

}  // namespace strata::index
