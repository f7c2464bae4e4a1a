#pragma once
// data: URIs (RFC 2397) as found in <img src>: "data:image/png;base64,iVBOR...".
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace strata::extract {

struct DataUri {
  std::string mime;  // lower-cased, parameters removed; "text/plain" when empty
  bool base64 = false;
  std::string bytes;  // decoded payload
};

struct DataUriLimits {
  size_t max_bytes = 16 * 1024 * 1024;  // decoded payloads larger than this are refused
};

// nullopt when the text is not a data: URI, the base64 is invalid, or the payload exceeds
// the limit. Whitespace inside base64 is ignored, missing '=' padding tolerated, and
// percent-escapes are decoded in both forms (as browsers do).
std::optional<DataUri> parse_data_uri(std::string_view uri, const DataUriLimits& limits = {});

bool is_data_uri(std::string_view uri);

}  // namespace strata::extract
