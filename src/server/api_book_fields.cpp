#include "server/api_book_fields.hpp"

#include <optional>

#include "index/book_facts.hpp"

namespace strata::server {
namespace {

Json text_or_null(const std::string& s) {
  return s.empty() ? Json() : Json(s);
}

Json list_or_null(const std::vector<std::string>& v) {
  return v.empty() ? Json() : Json(v);
}

Json number_or_null(const std::optional<int>& n) {
  return n ? Json(*n) : Json();
}

}  // namespace

Json book_field(const merge::ImageDocument& doc, std::string_view f) {
  const std::optional<index::BookFacts> book = index::parse_book_facts(doc.book);
  if (f == "kind") return book ? "book" : "web";
  if (!book) return Json();
  if (f == "bookTitle") return text_or_null(book->title);
  if (f == "author") return list_or_null(book->author);
  if (f == "pubYear") return number_or_null(book->year);
  if (f == "subject") return list_or_null(book->subject);
  if (f == "language") return text_or_null(book->language);
  if (f == "bookPage") return text_or_null(book->page);
  if (f == "bookPageIndex") return number_or_null(book->pageIndex);
  if (f == "bookId") return text_or_null(book->identifier);
  if (f == "bookImageUrl") return text_or_null(book->imageUrl);
  if (f == "bookFormat") return book->format.empty() ? "scan" : book->format;
  if (f == "bookChapter") return text_or_null(book->chapter);
  return Json();
}

bool page_archived(const merge::ImageDocument& doc) {
  if (doc.book.empty()) return true;
  const std::optional<index::BookFacts> book = index::parse_book_facts(doc.book);
  return book && book->format == "epub";
}

}  // namespace strata::server
