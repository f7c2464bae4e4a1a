#pragma once
// `strata books warc BOOK.epub`: an EPUB written as a WARC that `strata index` takes like any
// web archive (docs/books.md "EPUBs in the index"). The book is laid out as a small web site
// under its own host, https://SLUG.epub.invalid/MEMBER (epub_base_url), so the web extractor
// reads its chapters as pages (alt text, figcaption, surrounding text) and replay shows them:
//   - warcinfo;
//   - per XHTML document, a `metadata` record (extract::kBookChapterType) with the chapter's
//     page title (the book's title) and book facts (format "epub", identifier, title, author,
//     subject, language, year, chapter, pageIndex), which extraction attaches to every
//     reference the chapter's resource record gives; these come first, before any chapter;
//   - every manifest item as a `resource` record with its media type (chapters, images,
//     stylesheets, fonts), WARC-Date = dcterms:modified, else the file's modification time;
//   - per image no chapter shows with <img> (an SVG <image>, or none at all), a book page
//     record (extract::kBookPageType) naming the chapter that shows it, else the first.
//
// Failure contract: never throws for bad input. An unreadable EPUB is reported (`bad_epub`)
// and gives no WARC; a missing manifest member is reported (`missing_epub_member`) and left
// out. Throws std::runtime_error only when the WARC cannot be written.
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

#include "core/problems.hpp"

namespace strata::books {

struct EpubWarcResult {
  bool written = false;
  uint64_t chapters = 0;     // XHTML documents written
  uint64_t images = 0;       // image items written
  uint64_t image_pages = 0;  // book page records for images no <img> shows
  uint64_t missing = 0;      // manifest members that could not be read
};

EpubWarcResult write_epub_warc(const std::filesystem::path& epub, const std::filesystem::path& warc,
                               ProblemLog& problems);

// "https://SLUG.epub.invalid/": SLUG is the identifier lower-cased, runs of other characters
// than a-z and 0-9 as one '-' (urn:uuid:1B2C... -> urn-uuid-1b2c...), cut to 46 characters
// plus '-' and 16 hex digits of its SHA-256 when longer than 63 (a DNS label). The host makes
// each book a site of its own; .invalid (RFC 6761) never resolves, so nothing reaches the
// live web. An empty identifier gives "book".
std::string epub_base_url(std::string_view identifier);

// A member path as a URL path: bytes other than unreserved characters and '/' %-escaped.
std::string epub_member_url(std::string_view base, std::string_view member);

}  // namespace strata::books
