// robots.txt parsing and matching must accept any bytes: the first line is the URL asked
// about, the rest the file. Matching is also checked for being decided the same way twice.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "crawl/robots.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view input(reinterpret_cast<const char*>(data), size);
  std::size_t split = input.find('\n');
  std::string_view url = input.substr(0, split);
  std::string_view body = split == std::string_view::npos ? "" : input.substr(split + 1);
  auto robots = strata::crawl::RobotsTxt::parse(body);
  bool first = robots.allowed("StrataBot", url);
  if (first != robots.allowed("stratabot", url)) __builtin_trap();
  (void)robots.crawl_delay("StrataBot");
  (void)strata::crawl::robots_path(url);
  return 0;
}
