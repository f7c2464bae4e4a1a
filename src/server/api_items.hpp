#pragma once
// The pieces of an /imagesearch reply that other endpoints returning images reuse
// (similar_api.hpp), so their items and links read exactly like search results.
#include <string>
#include <vector>

#include "core/json.hpp"
#include "search/searcher.hpp"
#include "server/api.hpp"

namespace strata::server {

// One response item with the V1 `fields`; links to the archive under `wayback`.
Json api_item(const search::Hit& hit, const std::vector<std::string>& fields,
              const std::string& wayback);
// The request's link with parameter `name` set to `value` (nextPage, previousPage).
std::string api_link(const RequestContext& ctx, const Params& params, const std::string& name,
                     const std::string& value);
Reply api_reply(int status, const Json& body, bool pretty);

}  // namespace strata::server
