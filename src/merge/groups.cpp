#include "merge/groups.hpp"

namespace strata::merge {

const std::string& surt_key(const Record& record) {
  if (const auto* revisit = std::get_if<ImageRevisit>(&record))
    return revisit->refersToSurt.empty() ? revisit->imgSurt : revisit->refersToSurt;
  return std::visit([](const auto& r) -> const std::string& { return r.imgSurt; }, record);
}

bool record_from_json(const Json& j, Record& out) {
  if (has_type(j, "image")) return extract::from_json(j, out.emplace<ImageCapture>());
  if (has_type(j, "ref")) return extract::from_json(j, out.emplace<PageReference>());
  if (has_type(j, "revisit")) return extract::from_json(j, out.emplace<ImageRevisit>());
  return false;
}

Json record_to_json(const Record& record) {
  return std::visit([](const auto& r) { return extract::to_json(r); }, record);
}

void add_to_group(SurtGroup& group, Record&& record) {
  if (auto* c = std::get_if<ImageCapture>(&record))
    group.images.push_back(std::move(*c));
  else if (auto* r = std::get_if<ImageRevisit>(&record))
    group.revisits.push_back(std::move(*r));
  else
    group.refs.push_back(std::move(std::get<PageReference>(record)));
}

}  // namespace strata::merge
