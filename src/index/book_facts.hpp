#pragma once
// A book image's catalogue facts (merge::ImageDocument::book, written by `strata books warc`,
// docs/books.md "Indexing") read back for indexing (terms, the author and subject text) and
// for the API (kind, author, pubYear, subject, language, bookPage).
//
// Failure contract: parse_book_facts returns nullopt for an empty or unparsable value (a web
// image); fields of the wrong type read as absent. Never throws.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace strata::index {

struct BookFacts {
  std::string identifier, title, language, page, imageUrl;
  std::vector<std::string> author, subject;
  std::optional<int> year, pageIndex, leaf;
};

std::optional<BookFacts> parse_book_facts(std::string_view book);

}  // namespace strata::index
