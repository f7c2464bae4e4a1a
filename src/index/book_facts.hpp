#pragma once
// A book image's catalogue facts (merge::ImageDocument::book, written by `strata books warc`,
// docs/books.md "Indexing") read back for indexing (terms, the author and subject text) and
// for the API (kind, author, pubYear, subject, language, bookPage, bookFormat, bookChapter),
// and the filter terms of their language and publication year.
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
  std::string format;   // "epub" for an EPUB's images (books/epub_warc.hpp), else "" (a scan)
  std::string chapter;  // an EPUB chapter's heading
  std::vector<std::string> author, subject;
  std::optional<int> year, pageIndex, leaf;
};

std::optional<BookFacts> parse_book_facts(std::string_view book);

// Boolean terms of book images (beside schema.hpp's prefix::book, "A"): AL + the language's
// code (book_language_code), AY + the publication year as 4 digits (0000-9999).
inline constexpr std::string_view kBookLanguagePrefix = "AL";
inline constexpr std::string_view kBookYearPrefix = "AY";

// A language as the filter compares it: the primary subtag of a BCP 47 tag, lower-cased
// ("en-US" -> "en", "EN" -> "en"); "" when that is not 2 to 8 letters.
std::string book_language_code(std::string_view language);
// "AY1884": a year term; "" outside 0-9999.
std::string book_year_term(int year);

}  // namespace strata::index
