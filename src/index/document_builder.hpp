#pragma once
// Turns a merged ImageDocument into a Xapian document (terms, values, stored data).
#include <xapian.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analyze/pdq.hpp"
#include "index/stored_data.hpp"
#include "merge/document.hpp"
#include "similar/embedding_index.hpp"

namespace strata::index {

// What image analysis and moderation add to the merged document (docs/analysis.md): set by
// the analysis join (index/moderation.hpp), `strata block` and the classifier.
struct Moderation {
  double safe = -1.0;  // safe-search score in [0,1]; -1 = not classified (hidden under safe search)
  bool blocked = false;
  std::string analysis;  // analysis status ("ok", "corrupt", ...); "" = not analysed
  // These three are in value slots only (slot::phash, slot::embedding, slot::pdq), not in the
  // stored data: read_slot_moderation() reads them, IndexWriter carries them over.
  std::optional<uint64_t> phash;
  std::optional<similar::EmbeddingCode> embedding;
  std::optional<analyze::PdqHash> pdq;
  bool drawing = false;   // drawing/illustration rather than photo
  std::string thumbnail;  // path under <index>/thumbs; "" = none (placeholder)
  int thumb_width = 0, thumb_height = 0;

  bool classified() const { return safe >= 0; }
  bool operator==(const Moderation&) const = default;
};

// The stored document data: to_json(doc) plus the moderation fields, compact JSON (the writer
// compresses it: index/stored_data.hpp).
std::string document_data(const merge::ImageDocument& doc, const Moderation& m);
// Reads it back; false on malformed data.
bool parse_document_data(const std::string& data, merge::ImageDocument& doc, Moderation& m);
// An indexed document as search shows it: its stored data (unpacked with the dictionary of
// the index, or part, that holds it) and its pHash and PDQ (a value lookup each). False on
// malformed data.
bool read_indexed_document(const StoredData& stored, const Xapian::Document& xd,
                           merge::ImageDocument& doc, Moderation& m);
// Every moderation field kept in value slots only (pHash, PDQ, embedding).
void read_slot_moderation(const Xapian::Document& xd, Moderation& m);
// True when `a` and `b` have the same fields of the value slots only.
bool same_slot_moderation(const Moderation& a, const Moderation& b);

Xapian::Document build_document(const merge::ImageDocument& doc, const Moderation& m);
// The values alone of build_document(doc, m) (no terms, no data).
Xapian::Document document_values(const merge::ImageDocument& doc, const Moderation& m);
// True when build_document indexes the same text (every field of kTextFields, in order) for
// both: their postings and positions are then the same.
bool same_indexed_text(const merge::ImageDocument& a, const merge::ImageDocument& b);
// The same, given its stored data: document_data(doc, m).
Xapian::Document build_document(const merge::ImageDocument& doc, const Moderation& m,
                                std::string data);

// Boolean term of the id / of a URL for replay lookups (a hash: lookups compare the stored
// URL).
std::string id_term(const std::string& id);
std::string url_term(std::string_view prefix, const std::string& url);

// "www.fc.ul.pt" -> {"fc.ul.pt", "ul.pt", "pt"}.
std::vector<std::string> parent_domains(const std::string& host);

// "image/jpeg; charset=x" -> "jpeg".
std::string mime_subtype(const std::string& mime);

}  // namespace strata::index
