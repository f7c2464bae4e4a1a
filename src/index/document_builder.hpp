#pragma once
// Turns a merged ImageDocument into a Xapian document (terms, values, stored data).
#include <xapian.h>

#include <string>
#include <vector>

#include "merge/document.hpp"

namespace strata::index {

// Moderation state kept beside the merged document (set by the classifier/block stages).
struct Moderation {
  double safe = -1.0;  // NSFW score in [0,1]; -1 = not analysed yet (shown under safe search)
  bool blocked = false;
};

// The stored document data: to_json(doc) plus "safe" and "blocked", compact JSON.
std::string document_data(const merge::ImageDocument& doc, const Moderation& m);
// Reads it back; false on malformed data.
bool parse_document_data(const std::string& data, merge::ImageDocument& doc, Moderation& m);

Xapian::Document build_document(const merge::ImageDocument& doc, const Moderation& m);

// Boolean term of the id / of a URL for replay lookups (long URLs are hashed to fit).
std::string id_term(const std::string& id);
std::string url_term(std::string_view prefix, const std::string& url);

// "www.fc.ul.pt" -> {"fc.ul.pt", "ul.pt", "pt"}.
std::vector<std::string> parent_domains(const std::string& host);

// "image/jpeg; charset=x" -> "jpeg".
std::string mime_subtype(const std::string& mime);

}  // namespace strata::index
