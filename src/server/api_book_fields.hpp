#pragma once
// The API fields of book images (docs/api.md "Book images"), asked for with fields= or more=
// beside Arquivo's: kind (web|book, every image), bookTitle, author, pubYear, subject,
// language, bookPage (the printed page number), bookPageIndex (the viewer's page, n of
// /page/nN), bookId (the Internet Archive identifier), bookImageUrl (the page-image member
// with its Media Fragment box), bookFormat (scan or epub), bookChapter (an EPUB chapter's
// heading). Web images have none of them but kind.
#include <array>
#include <string_view>

#include "core/json.hpp"
#include "merge/document.hpp"

namespace strata::server {

inline constexpr std::array<std::string_view, 12> kBookFields{
    "kind",     "bookTitle",     "author", "pubYear",      "subject",    "language",
    "bookPage", "bookPageIndex", "bookId", "bookImageUrl", "bookFormat", "bookChapter"};

// Whether the document's page was archived: a web page or an EPUB chapter, not a scanned
// book's viewer page (pageLinkToArchive is omitted for those).
bool page_archived(const merge::ImageDocument& doc);

// The value of book field `f` for `doc`; null when it has none (the field is then left out).
Json book_field(const merge::ImageDocument& doc, std::string_view f);

}  // namespace strata::server
