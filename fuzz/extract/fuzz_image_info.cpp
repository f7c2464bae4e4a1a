// libFuzzer target: image header parsing, MIME sniffing and data: URIs on arbitrary bytes.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "extract/data_uri.hpp"
#include "extract/image_info.hpp"
#include "extract/mime_sniff.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  auto info = strata::extract::read_image_info(bytes);
  std::string mime = strata::extract::sniff_image_mime(bytes);
  if (info && (info->mime != mime || info->width < 0 || info->height < 0)) __builtin_trap();
  if (info) (void)strata::extract::passes_size_gates(*info);
  (void)strata::extract::parse_data_uri(bytes, {.max_bytes = 1 << 20});
  return 0;
}
