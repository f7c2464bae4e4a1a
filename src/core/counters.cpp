#include "core/counters.hpp"

#include "core/table.hpp"

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
  Table table;
  for (const auto& [name, value] : values_) table.add_row({name, format_count(value)});
  return table.render(indent);
}

}  // namespace strata
