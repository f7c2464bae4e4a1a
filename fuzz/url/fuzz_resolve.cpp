// Resolution of arbitrary references against arbitrary bases: the first line is the base.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "url/url.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view input(reinterpret_cast<const char*>(data), size);
  std::size_t split = input.find('\n');
  std::string_view base = input.substr(0, split);
  std::string_view relative = split == std::string_view::npos ? "" : input.substr(split + 1);
  if (auto resolved = strata::url::resolve(base, relative)) (void)strata::url::surt(*resolved);
  (void)strata::url::host(input);
  return 0;
}
