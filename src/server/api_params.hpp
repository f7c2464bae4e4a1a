#pragma once
// Reads and validates the /imagesearch parameters (each error names its parameter).
#include <string>
#include <vector>

#include "search/request.hpp"
#include "server/api.hpp"

namespace strata::server {

struct ApiRequest {
  search::SearchRequest search;
  std::vector<std::string> fields;  // V1 names, in output order
  bool pretty = false;
};

// Default V1 fields of a response item, and every name `fields`/`more` accept.
const std::vector<std::string>& default_fields();
const std::vector<std::string>& known_fields();

// Repeated parameters: the last value wins, except safeSearch, which is on when any value is
// on (so a front proxy that appends safeSearch=on cannot be bypassed). A safeSearch parameter,
// and the operator's lock, win over the inline safe: operator of q. offset above kMaxOffset
// and maxItems above search::kMaxMaxItems are errors, as are more than kMaxQueryTerms
// distinct words and phrases in q. A collapse parameter wins over the inline collapse:
// operator. Throws search::RequestError.
inline constexpr unsigned kMaxOffset = 10000;
inline constexpr size_t kMaxQueryBytes = 2048;
ApiRequest parse_api_params(const Params& params, const ApiConfig& config = {});

}  // namespace strata::server
