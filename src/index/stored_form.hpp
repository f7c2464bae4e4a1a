#pragma once
// The layout of a stored document (document_builder.hpp, document_data): the document's JSON
// object without what follows from its URLs (`type`; `imgSurt`, `imgUrlTokens`,
// `pageUrlTokens` where they equal what url::join_surt / url::url_tokens give), written as a JSON
// array of the values in a fixed field order, so the field names are not stored with every
// document: ~60 bytes per document before compression, ~20 after (docs/search.md).
#include <span>
#include <string_view>

#include "core/json.hpp"

namespace strata::index {

// Document object -> stored array: values in kStoredFields order (null where absent, trailing
// nulls dropped), then one object holding any other fields.
Json stored_form(Json document);
// The inverse. An object (a document stored in the object layout) is taken as it is.
Json document_form(Json stored);
// The field of each position of the array layout.
std::span<const std::string_view> stored_field_names();

}  // namespace strata::index
