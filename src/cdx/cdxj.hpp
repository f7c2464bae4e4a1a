#pragma once
// CDXJ index lines for pywb, byte-compatible with webrecorder/cdxj-indexer's defaults:
//   <cdx_surt key> <14-digit timestamp> {"url": ..., "mime": ..., "status": ...,
//   "digest": ..., "length": ..., "offset": ..., "filename": ...}
// Fields without a value are left out, exactly as cdxj-indexer does.
#include <string>
#include <string_view>
#include <vector>

#include "archive/record.hpp"

namespace strata::cdx {

// cdxj-indexer's default --records: response, revisit, resource and metadata, except
// resource/metadata records whose WARC Content-Type is application/warc-fields.
bool indexed(const archive::Record& record);

// The "mime" field: "warc/revisit" for revisits, the HTTP Content-Type for response and
// request records, the WARC (or ARC) Content-Type otherwise; cut at the first ';' or space.
std::string mime_field(const archive::Record& record);

// One CDXJ line for the record, without the trailing newline. `filename` is what the
// "filename" field says (cdxj-indexer: the file's base name).
std::string cdxj_line(const archive::Record& record, std::string_view filename);

// Python json.dumps of a string (ensure_ascii): quotes, escapes, non-ASCII as \uXXXX.
std::string python_json_string(std::string_view utf8);

// cdxj-indexer --sort: lines in code-point (= byte) order, exact duplicates dropped.
void sort_lines(std::vector<std::string>& lines);

}  // namespace strata::cdx
