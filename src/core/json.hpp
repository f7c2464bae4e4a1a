#pragma once
// JSON between stages: nlohmann::ordered_json keeps field order as written, so JSONL
// records read the same way every time and diff cleanly.
#include <nlohmann/json.hpp>

namespace strata {
using Json = nlohmann::ordered_json;

// Reads j[key] into `out` when present and not null; missing fields keep their defaults so
// files written by older versions stay readable. Throws on a field of the wrong type.
template <typename T>
void read_field(const Json& j, const char* key, T& out) {
  auto it = j.find(key);
  if (it != j.end() && !it->is_null()) out = it->template get<T>();
}

// True when j is an object whose "type" is `type`.
inline bool has_type(const Json& j, const char* type) {
  if (!j.is_object()) return false;
  auto it = j.find("type");
  return it != j.end() && it->is_string() && it->template get_ref<const std::string&>() == type;
}
}  // namespace strata
