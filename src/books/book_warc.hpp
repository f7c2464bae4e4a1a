#pragma once
// `strata books warc`: a book's crops (the output of extract_item's default mode, OUT/ID/)
// written as one WARC that `strata index` takes like any web archive (docs/books.md
// "Indexing"). Per crop, in page order:
//   - a `resource` record holding the JPEG, WARC-Target-URI = crop_capture_url(image_url),
//     WARC-Date = the scan date, so analysis and replay read the crop where a location says;
//   - a `metadata` record (extract::kBookPageType, concurrent to it) naming its page URL,
//     page title (the book's title), caption, text and the book's catalogue facts (`book`),
//     which extraction turns into the crop's page reference.
//
// Failure contract: write_book_warc never throws for bad input: a missing or unreadable
// images.jsonl, a malformed line or a missing crop file is a problem (file, line offset) and
// that crop is left out. It throws std::runtime_error only when the WARC cannot be written.
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

#include "books/extract.hpp"
#include "core/json.hpp"
#include "core/problems.hpp"

namespace strata::books {

struct BookWarcResult {
  uint64_t crops = 0;    // crops written
  uint64_t skipped = 0;  // lines of images.jsonl left out (reported)
};

BookWarcResult write_book_warc(const std::filesystem::path& extracted,
                               const std::filesystem::path& warc, ProblemLog& problems);

// An item cropped (extract_item, default mode, into a scratch folder in `out_dir`, removed
// after) and written as out_dir/ID.warc.gz; the counters add `warc_crops`. An EPUB is
// written as out_dir/STEM.warc.gz by write_epub_warc (books/epub_warc.hpp); the counters add
// `warc_epub_chapters`, `warc_epub_images` and `warc_epub_image_pages`.
ItemResult item_to_warc(const std::filesystem::path& item, ExtractOptions options,
                        const std::filesystem::path& out_dir, ProblemLog& problems);

// The URL a crop is captured under: its image_url with the Media Fragment turned into a query
// (`MEMBER?xywh=l,t,w,h`), since SURTs drop fragments and two crops of a page would share one.
std::string crop_capture_url(std::string_view image_url);

// The `book` object of a crop's page reference: book.json's catalogue facts with the crop's
// page (identifier, title, author, year, subject, language, page, pageIndex, leaf, imageUrl).
Json book_facts(const Json& book, const Json& crop);

}  // namespace strata::books
