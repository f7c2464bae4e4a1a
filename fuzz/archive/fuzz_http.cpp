// libFuzzer target: HTTP head parsing, de-chunking and content decoding of arbitrary bytes.
#include <cstddef>
#include <cstdint>
#include <string>

#include "archive/http.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view in(reinterpret_cast<const char*>(data), size);
  strata::archive::HttpHead head;
  size_t n = strata::archive::parse_http_head(in, true, head);
  std::string_view body = in.substr(n);
  std::string out;
  strata::archive::dechunk(body, out);
  strata::archive::looks_chunked(body);
  for (const char* coding : {"gzip", "deflate", "br", "zstd", "gzip, br"})
    strata::archive::decode_content(coding, body, out, 1 << 20);
  return 0;
}
