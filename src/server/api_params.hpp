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

// Throws search::RequestError.
ApiRequest parse_api_params(const Params& params);

}  // namespace strata::server
