#pragma once
// The fast way to read a stored document (stored_form.hpp's array layout) into an
// ImageDocument: simdjson straight into the fields, no JSON object in between. A search
// decodes every hit of its page (up to 200), and building the object cost ~14 us of the
// ~15 us per document (docs/BENCHMARKS.md, "Search").
#include <string_view>

#include "index/document_builder.hpp"

namespace strata::index {

// Reads `data` (the JSON text of a stored document) into `doc` and `m` as
// parse_document_data() does. False, leaving the fields it read set, when the data is not a
// plain array layout (an object layout, extra fields, a field it does not know, a value of
// an unexpected type, malformed JSON): the caller then reads it the general way, which sets
// every field present again.
bool read_stored_array(std::string_view data, merge::ImageDocument& doc, Moderation& m);

}  // namespace strata::index
