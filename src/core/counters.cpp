#include "core/counters.hpp"

#include <algorithm>
#include <sstream>

namespace strata {

int64_t Counters::get(std::string_view name) const {
  auto it = values_.find(name);
  return it == values_.end() ? 0 : it->second;
}

void Counters::merge(const Counters& other) {
  for (const auto& [name, value] : other.values_) add(name, value);
}

Json Counters::to_json() const {
  Json out = Json::object();
  for (const auto& [name, value] : values_) out[name] = value;
  return out;
}

std::string Counters::to_text(const std::string& indent) const {
  size_t width = 0;
  for (const auto& entry : values_) width = std::max(width, entry.first.size());
  std::ostringstream out;
  for (const auto& [name, value] : values_)
    out << indent << name << std::string(width - name.size() + 2, ' ') << value << '\n';
  return out.str();
}

}  // namespace strata
