#include "index/stored_form.hpp"

#include <array>
#include <string>
#include <string_view>

#include "url/url.hpp"

namespace strata::index {
namespace {

// The order of merge::to_json, then the moderation fields. Appending is safe; reordering or
// removing a name changes how stored documents read (bump the schema version).
constexpr std::array<std::string_view, 44> kStoredFields{"id",
                                                         "imgDigest",
                                                         "imgUrl",
                                                         "imgMimeType",
                                                         "imgMimeTypeReported",
                                                         "imgWidth",
                                                         "imgHeight",
                                                         "imgSize",
                                                         "imgCrawlTimestamp",
                                                         "imgCrawlTimestampLatest",
                                                         "imgCaptureTimes",
                                                         "imgFile",
                                                         "imgOffset",
                                                         "imgLength",
                                                         "isInline",
                                                         "imgTitle",
                                                         "imgAlt",
                                                         "imgCaption",
                                                         "pageUrl",
                                                         "pageTitle",
                                                         "pageHost",
                                                         "pageCrawlTimestamp",
                                                         "pageFile",
                                                         "pageOffset",
                                                         "pageLength",
                                                         "tags",
                                                         "imagesInOriginalPage",
                                                         "imageMetadataChanges",
                                                         "pageMetadataChanges",
                                                         "matchingImages",
                                                         "matchingPages",
                                                         "refsInMain",
                                                         "refsInChrome",
                                                         "refsAsLogo",
                                                         "collection",
                                                         "safe",
                                                         "blocked",
                                                         "analysis",
                                                         "isDrawing",
                                                         "thumbnail",
                                                         "thumbWidth",
                                                         "thumbHeight",
                                                         "book",
                                                         "distinctPages"};

struct DerivedField {
  const char* name;
  const char* source;
  std::string (*derive)(std::string_view);
};
const DerivedField kDerivedFields[] = {{"imgSurt", "imgUrl", url::join_surt},
                                       {"imgUrlTokens", "imgUrl", url::url_tokens},
                                       {"pageUrlTokens", "pageUrl", url::url_tokens}};

void drop_derived(Json& j) {
  j.erase("type");  // always "document"
  for (const DerivedField& f : kDerivedFields) {
    const auto source = j.find(f.source), field = j.find(f.name);
    if (source != j.end() && field != j.end() && source->is_string() &&
        *field == f.derive(source->get<std::string>()))
      j.erase(field);
  }
}

void restore_derived(Json& j) {
  j.emplace("type", "document");
  for (const DerivedField& f : kDerivedFields) {
    const auto source = j.find(f.source);
    if (!j.contains(f.name) && source != j.end() && source->is_string())
      j[f.name] = f.derive(source->get<std::string>());
  }
}

}  // namespace

Json stored_form(Json document) {
  drop_derived(document);
  Json values = Json::array();
  for (const std::string_view name : kStoredFields) {
    const auto it = document.find(name);
    if (it == document.end()) {
      values.push_back(nullptr);
      continue;
    }
    values.push_back(std::move(*it));
    document.erase(it);
  }
  while (!values.empty() && values.back().is_null()) values.erase(values.end() - 1);
  if (!document.empty()) {
    values.insert(values.end(), kStoredFields.size() - values.size(), nullptr);
    values.push_back(std::move(document));
  }
  return values;
}

std::span<const std::string_view> stored_field_names() {
  return kStoredFields;
}

Json document_form(Json stored) {
  if (!stored.is_array()) return stored;
  Json document = Json::object();
  for (size_t i = 0; i < stored.size() && i < kStoredFields.size(); ++i)
    if (!stored[i].is_null()) document[std::string(kStoredFields[i])] = std::move(stored[i]);
  if (stored.size() > kStoredFields.size() && stored.back().is_object())
    for (auto& [name, value] : stored.back().items()) document[name] = std::move(value);
  restore_derived(document);
  return document;
}

}  // namespace strata::index
