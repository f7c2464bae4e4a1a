#pragma once
// The JSON line of a merged document, written directly (no intermediate Json tree): the
// in-process merge writes one per image, and building nlohmann objects was a third of its
// time. Byte-identical to to_json(doc).dump(-1, ' ', false, replace) (tested).
#include <string>

#include "merge/document.hpp"

namespace strata::merge {

// Appends the document's JSON object (no newline) to `out`; S: std::string or std::string_view.
template <typename S>
void append_document_json(const BasicImageDocument<S>& doc, std::string& out);

}  // namespace strata::merge
