#include "merge/groups.hpp"

namespace strata::merge {

const std::string& surt_key(const Record& record) {
  static const std::string none;
  if (const auto* revisit = std::get_if<ImageRevisit>(&record))
    return revisit->refersToSurt.empty() ? revisit->imgSurt : revisit->refersToSurt;
  if (const auto* capture = std::get_if<ImageCapture>(&record)) return capture->imgSurt;
  if (const auto* ref = std::get_if<PageReference>(&record)) return ref->imgSurt;
  return none;
}

bool record_from_json(const Json& j, Record& out) {
  if (has_type(j, "image")) return extract::from_json(j, out.emplace<ImageCapture>());
  if (has_type(j, "ref")) return extract::from_json(j, out.emplace<PageReference>());
  if (has_type(j, "revisit")) return extract::from_json(j, out.emplace<ImageRevisit>());
  if (has_type(j, "dropped")) {
    read_field(j, "count", out.emplace<DroppedReferences>().count);
    return true;
  }
  return false;
}

namespace {
struct ToJson {
  Json operator()(const DroppedReferences& note) const {
    return Json{{"type", "dropped"}, {"count", note.count}};
  }
  template <typename R>
  Json operator()(const R& r) const {
    return extract::to_json(r);
  }
};
}  // namespace

Json record_to_json(const Record& record) {
  return std::visit(ToJson{}, record);
}

void add_to_group(SurtGroup& group, Record&& record) {
  if (auto* c = std::get_if<ImageCapture>(&record))
    group.images.push_back(std::move(*c));
  else if (auto* r = std::get_if<ImageRevisit>(&record))
    group.revisits.push_back(std::move(*r));
  else if (auto* ref = std::get_if<PageReference>(&record))
    group.refs.push_back(std::move(*ref));
}

}  // namespace strata::merge
