#pragma once
// Items from Strata's documents (docs/redundancy.md, "Attributes"), and named covers kept in
// an index: a boolean term (index/cover_terms.hpp) on every document a named cover
// hides, so a search filters on it at no cost.
//
// Failure contract: read_index() and store_named_cover() throw CoverError for an index that
// cannot be opened or written (Xapian errors are converted); documents whose stored data is
// unreadable are skipped and counted, never thrown.
#include <xapian.h>

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/json.hpp"
#include "core/problems.hpp"
#include "cover/expr.hpp"
#include "cover/item.hpp"
#include "index/document_builder.hpp"
#include "merge/document.hpp"

namespace strata::cover {

// The `domain` attribute: the last two labels of a host ("www.fc.ul.pt" -> "ul.pt").
std::string last_two_labels(const std::string& host);

// The item of one document, with the attributes `uses` names (the others stay missing).
Item item_from_document(const merge::ImageDocument& doc, const index::Moderation& m,
                        const Uses& uses);

struct IndexItems {
  std::vector<Item> items;       // in docid order
  std::vector<std::string> ids;  // document ids
  std::vector<Xapian::docid> docids;
  std::vector<uint64_t> bytes;  // image sizes (for the bytes removed)
  size_t unreadable = 0;        // documents whose stored data could not be read
};

// Every document of the index at `dir`; `progress(n)` after each n documents read. With
// `texts`, each item's texts go there as it is read (held apart: item_texts.hpp).
class ItemTexts;
IndexItems read_index(const std::string& dir, const Uses& uses,
                      const std::function<void(uint64_t)>& progress = {},
                      ItemTexts* texts = nullptr);

// Replaces the named cover `name` in the index at `dir`: `hidden` get its term, no other
// document keeps it; `about` is stored as metadata (index/cover_terms.hpp).
void store_named_cover(const std::string& dir, const std::string& name,
                       std::span<const Xapian::docid> hidden, const Json& about);

// pHashes by digest from an analysis.jsonl (`strata analyze`); unreadable files and bad
// lines are reported to `problems` (file and byte offset) and skipped.
std::unordered_map<std::string, uint64_t> read_phashes(const std::string& file,
                                                       ProblemLog& problems);

// The named covers of an open index, name -> `about`.
Json named_covers(const Xapian::Database& db);

}  // namespace strata::cover
