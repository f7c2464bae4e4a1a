#pragma once
// Where records start (internal to the reader). Where a record is expected (after the one
// before it), "WARC/" or a plausible ARC line is enough; anywhere else (scanning damaged
// bytes, or a block whose declared length is wrong) a start must be valid, since "WARC/" or
// a URL line may be payload text.
#include <cstdint>
#include <string_view>
#include <vector>

namespace strata::archive {

std::string_view trim(std::string_view s);  // spaces, tabs, and a CR at the end
bool parse_u64(std::string_view s, uint64_t& out);
// An ARC header line's fields (Alexa's empty MIME type given back as an empty field).
std::vector<std::string_view> arc_fields(std::string_view line);
// Length of a head up to and including its blank line ("\r\n" or "\n"), or npos.
size_t find_head_end(std::string_view data);

enum class Boundary { yes, no, need_more };

// At the place a record is expected: "WARC/", or an ARC line with a URL and a length.
Boundary expected_record_start(std::string_view data, bool arc, bool at_end);
// Anywhere: a WARC head that parses (version line, WARC-Type, WARC-Record-ID, WARC-Date and
// a numeric Content-Length in its first 64 KiB), or an ARC line with a date and a length.
Boundary valid_record_start(std::string_view data, bool arc, bool at_end);

struct RecordStart {
  size_t at;          // offset in the data scanned; npos when there is none
  Boundary boundary;  // yes, or need_more: it may be one, with more data (never at 0)
};
// The first record start in `data`: at `member_starts` (offsets in `data`: gzip members start
// records, checked as expected starts) and, with `any_byte`, at any byte (checked as valid).
RecordStart first_record_start(std::string_view data, std::vector<uint64_t> member_starts, bool arc,
                               bool at_end, bool any_byte);

}  // namespace strata::archive
