#pragma once
// The index layout of named covers (strata cover --name, src/cover/documents.hpp), beside
// schema.hpp so that adding it changed no existing format: a boolean term on every document
// a named cover hides, and one metadata entry per cover. A search that names the cover
// leaves those documents out (search/query_builder.cpp) at the cost of one AND_NOT.
#include <algorithm>
#include <string>
#include <string_view>

namespace strata::index {

inline constexpr std::string_view kCoveredPrefix = "R";                // R + cover name
inline constexpr std::string_view kMetaCoverPrefix = "strata:cover:";  // + name -> JSON

// A cover name: 1 to 32 of [a-z0-9_-].
inline bool valid_cover_name(std::string_view name) {
  return !name.empty() && name.size() <= 32 && std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
  });
}

inline std::string covered_term(std::string_view cover_name) {
  return std::string(kCoveredPrefix) + std::string(cover_name);
}

}  // namespace strata::index
