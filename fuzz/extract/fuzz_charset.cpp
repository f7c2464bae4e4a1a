// libFuzzer target: HTML decoding (BOM, HTTP label, meta prescan, detection, conversion,
// mojibake repair). The first byte picks an HTTP charset label; the output must be UTF-8.
#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "extract/charset.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static constexpr std::array<std::string_view, 8> kLabels{
      "", "utf-8", "iso-8859-1", "shift_jis", "utf-16le", "euc-kr", "x-user-defined", "gb18030"};
  if (size == 0) return 0;
  std::string_view label = kLabels[data[0] % kLabels.size()];
  std::string_view bytes(reinterpret_cast<const char*>(data + 1), size - 1);
  strata::extract::DecodedText decoded = strata::extract::decode_html(bytes, label);
  if (!strata::extract::is_valid_utf8(decoded.utf8)) __builtin_trap();
  (void)strata::extract::looks_mis_encoded(decoded.utf8);
  (void)strata::extract::prescan_meta_charset(bytes, bytes.size());
  return 0;
}
