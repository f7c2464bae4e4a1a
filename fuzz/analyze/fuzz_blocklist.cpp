// libFuzzer: block-list lines and URLs: parse, match and host extraction never crash.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "analyze/blocklist.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto split = text.find('\n');
  const std::string_view line = text.substr(0, split);
  const std::string_view url = split == std::string_view::npos ? text : text.substr(split + 1);
  strata::analyze::BlockList list;
  strata::analyze::BlockPattern pattern;
  if (strata::analyze::BlockList::parse(line, pattern)) list.add(pattern);
  list.blocked(url, url);
  strata::analyze::url_host(url);
  return 0;
}
