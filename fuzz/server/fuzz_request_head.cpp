// libFuzzer target: strict parsing of HTTP request heads as `strata serve` reads them
// (server/request_head.hpp), then the handler's view of an accepted one (path and query
// decoding).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "server/request_head.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view in(reinterpret_cast<const char*>(data), size);
  const strata::server::RequestHead head = strata::server::parse_request_head(in);
  if (head.status == 0) strata::server::to_request(head, "127.0.0.1");
  return 0;
}
