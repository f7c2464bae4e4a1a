#pragma once
// Lenient HTTP message handling for archived blocks: heads as real crawlers wrote them
// ("HTTP/1.1 200Ok", folded and duplicate headers, bare LF, non-UTF-8 bytes), chunked
// transfer-encoding (declared or not) and content codings (gzip, deflate, br, zstd).
#include <cstddef>
#include <string>
#include <string_view>

#include "archive/header_pool.hpp"
#include "archive/record.hpp"

namespace strata::archive {

// Parses the HTTP head at the start of `data` (a prefix of the block; `whole` when it is the
// entire block). Returns the head length including the blank line, or 0 when `data` does not
// start with an HTTP message. A whole block without a blank line is all head (revisits).
// Header lines reuse the strings of `pool` when one is given.
size_t parse_http_head(std::string_view data, bool whole, HttpHead& head,
                       HeaderPool* pool = nullptr);

// Content-Type value -> lower-case mime without parameters, and the charset parameter.
void split_content_type(std::string_view value, std::string& mime, std::string& charset);

enum class DechunkResult { ok, truncated, invalid };
// Undoes chunked transfer-encoding; `invalid` leaves `out` empty (the data is not chunked).
DechunkResult dechunk(std::string_view in, std::string& out);
// Strong evidence of chunking: a valid hex size line, that many bytes, CRLF, and another
// size line (or the end). Used when the head does not declare chunking.
bool looks_chunked(std::string_view body);

enum class DecodeResult { ok, failed, oversized };
// Undoes Content-Encoding (a list, applied last-first). identity/unknown-empty are no-ops;
// an unknown coding is `failed`.
DecodeResult decode_content(std::string_view encodings, std::string_view in, std::string& out,
                            size_t cap);

}  // namespace strata::archive
