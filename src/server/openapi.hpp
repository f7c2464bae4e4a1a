#pragma once
#include <string>

namespace strata::server {
// The OpenAPI 3 description served at /imagesearch/openapi.json.
std::string openapi_json();
}  // namespace strata::server
