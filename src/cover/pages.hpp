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
// Failure contract: read_index_pages() throws CoverError when the index's record store cannot
// be read. Bad lines are reported (file, offset) and skipped; a page whose archive record
// cannot be read again has no `text` (so no text atom hides it or lets it hide another) and
// is counted in `PageItems::without_text`. Nothing else throws (beyond std::bad_alloc).
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "core/problems.hpp"
#include "cover/documents.hpp"
#include "cover/expr.hpp"

namespace strata::cover {

struct PageItems {
  IndexItems pages;           // items, ids and record lengths as bytes (no docids)
  uint64_t references = 0;    // reference lines read
  uint64_t without_text = 0;  // pages whose record could not be read again (text missing)
};

// Pages from extraction JSONL files, or folders of part-*.jsonl; `progress(n)` per n lines.
PageItems read_record_pages(const std::vector<std::string>& inputs, const Uses& uses,
                            ProblemLog& problems,
                            const std::function<void(uint64_t)>& progress = {});

// Pages from the record store of the index at `dir` (every live record).
PageItems read_index_pages(const std::string& dir, const Uses& uses, ProblemLog& problems,
                           const std::function<void(uint64_t)>& progress = {});

}  // namespace strata::cover
