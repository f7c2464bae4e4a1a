#pragma once
// Book page records (docs/books.md "Indexing"): a WARC `metadata` record of content type
// kBookPageType that `strata books warc` writes after each crop's `resource` record, naming
// the crop's page, its caption or text and the book's catalogue facts. Extraction turns it
// into the crop's page reference, so book images merge, analyse and index as web images do.
//
// Failure contract: book_page_reference returns nullopt (the caller counts it) for a payload
// that is not such a JSON object or names no image or page URL; it never throws.
#include <optional>
#include <string>
#include <string_view>

#include "extract/page_extract.hpp"
#include "extract/records.hpp"

namespace strata::extract {

inline constexpr std::string_view kBookPageType = "application/vnd.strata.book-page+json";
// A book chapter archived as a page (an EPUB's XHTML, books/epub_warc.hpp): a `metadata`
// record with the chapter's URL, written before the chapter's own record, holding
// {"pageTitle", "book"}; extraction gives every reference of that page these page title and
// book facts, so the chapter's images are book images found on an archived page.
inline constexpr std::string_view kBookChapterType = "application/vnd.strata.book-chapter+json";

// A chapter's page title and book facts (JSON object text), from a kBookChapterType payload.
struct BookChapter {
  std::string page_title;
  std::string book;
};
// nullopt (the caller counts it) when the payload is not such an object; never throws.
std::optional<BookChapter> book_chapter(std::string_view payload);

// `where` gives the record's URL (the crop's), date, collection, file and offset; its html is
// the record's JSON payload. Its optional "alt" is the image's alt text.
std::optional<PageReference> book_page_reference(const PageInput& where);

}  // namespace strata::extract
