#pragma once
// Archived pages as items (docs/redundancy.md, "Pages"): the captures of the pages that hold
// images, found from the references extraction writes (`{"type":"ref"}` lines: in an index's
// record store, or in `strata extract`'s part-*.jsonl), one item per page record (archive
// file and offset). Attributes: `url` the page URL's SURT, `page` the URL as captured,
// `host`, `domain`, `ts` = `pagets` the capture time, `bytes` the record's length,
// `pagetitle` (and `title`) the <title> words, `collection`; `text` the distinct 5-word
// shingles of the page's main text (similar::page_shingles: the words the stored pageSketch
// is made of), read again from the archive record, only when the expression reads `text`.
// Ids are "TIMESTAMP/URL", as a Wayback address names a capture.
//
// (An index's record store is read by `strata cover` itself, apps/strata/cmd_cover.cpp, into
// a PageCollector: src/store sits above src/search, which uses this module.)
//
// Failure contract: bad lines are reported (file, offset) and skipped; a page whose archive record
// cannot be read again has no `text` (so no text atom hides it or lets it hide another) and
// is counted in `PageItems::without_text`. Nothing else throws (beyond std::bad_alloc).
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/json.hpp"
#include "core/problems.hpp"
#include "cover/documents.hpp"
#include "cover/expr.hpp"
#include "cover/item_texts.hpp"

namespace strata::cover {

// One page capture as its reference lines describe it (the same for every image of it).
struct PageRef {
  std::string archive;  // archive file
  uint64_t offset = 0;  // the page record's offset in it
  std::string url, timestamp, title, host, collection;
  uint64_t length = 0;
};

// What a line of extraction JSONL is, for pages.
enum class PageLine { page, other, not_json, no_page };
// A reference line's page (`other`: an image, revisit or blank line; `no_page`: a reference
// without its archive file or page URL).
PageLine parse_page_line(std::string_view line, PageRef& out);

// A page as JSON ({"file","offset","pageUrl","pageTimestamp","pageTitle","pageHost",
// "collection","length"}: the reference's own names) and back (false when it is not one).
Json page_json(const PageRef& page);
bool page_from_json(const Json& j, PageRef& out);

// "TIMESTAMP/URL", as a Wayback address names a capture.
std::string page_id(const PageRef& page);
// The page's main-text shingles, read again from its archive record; nullopt when the record
// cannot be read (moved archive, another record at that offset, damaged bytes).
std::optional<std::vector<uint64_t>> page_text(const PageRef& page);
// The item of a page with the attributes `uses` names; `text` its main-text shingles (when
// `uses` reads `text` and they could be read).
Item page_item(const PageRef& page, const Uses& uses,
               std::optional<std::vector<uint64_t>> text = std::nullopt);

struct PageItems {
  IndexItems pages;           // items, ids and record lengths as bytes (no docids)
  uint64_t references = 0;    // reference lines read
  uint64_t without_text = 0;  // pages whose record could not be read again (text missing)
};

// Gathers the pages of reference lines, one per page record, then makes their items.
class PageCollector {
 public:
  // One line of extraction JSONL (images and revisits are passed over); a line that is not a
  // JSON object, or a reference without its page, is reported with `file` and `offset`.
  void add_line(std::string_view line, const std::string& file, uint64_t offset,
                ProblemLog& problems);
  // The items in (archive, offset) order, so the cover does not depend on the input's order;
  // each page's record is read again when `uses` reads `text`. With `texts`, each item's
  // texts go there as it is made (held apart from the items, out of core: item_texts.hpp).
  PageItems finish(const Uses& uses, ItemTexts* texts = nullptr);

 private:
  std::map<std::pair<std::string, uint64_t>, PageRef> pages_;  // by archive file, offset
  uint64_t references_ = 0;
};

// Pages from extraction JSONL files, or folders of part-*.jsonl; `progress(n)` per n lines.
PageItems read_record_pages(const std::vector<std::string>& inputs, const Uses& uses,
                            ProblemLog& problems,
                            const std::function<void(uint64_t)>& progress = {},
                            ItemTexts* texts = nullptr);

}  // namespace strata::cover
