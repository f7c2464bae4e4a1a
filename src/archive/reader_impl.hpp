#pragma once
// Private state of ArchiveReader, shared by reader.cpp (records), reader_open.cpp (inputs).
#include <zip.h>

#include <memory>
#include <string>
#include <vector>

#include "archive/header_pool.hpp"
#include "archive/reader.hpp"
#include "archive/stream.hpp"

namespace strata::archive {

enum class Dialect { unknown, warc, arc };

// The last date text converted to 14 digits, and the result (reader.cpp, date14).
struct DateMemo {
  std::string iso, date;
  bool known = false;
};

struct ArchiveReader::Impl {
  std::string path;  // as given, for problems before any entry is opened
  std::string file;  // Record::file of the current stream ("x.wacz#entry" inside WACZ)
  std::unique_ptr<Stream> stream;
  Dialect dialect = Dialect::unknown;
  int arc_version = 1;
  bool usable = true;
  bool have_record = false;
  bool block_touched = false;  // read_payload/read_block started consuming the block
  bool length_settled = false;
  bool truncation_reported = false;
  bool single = false;        // read_record_at: one record only
  bool single_done = false;   // ... and it was returned
  uint64_t record_start = 0;  // decoded offsets
  uint64_t block_start = 0;
  uint64_t block_end = 0;
  uint64_t http_head_len = 0;
  uint64_t bytes_before = 0;              // compressed bytes of finished WACZ entries
  HeaderPool warc_headers, http_headers;  // the header lines' strings, reused per record
  DateMemo dates, refers_to_dates;        // WARC-Date, WARC-Refers-To-Date
  // Problems the stream reported, not yet added to the reader's counters.
  int64_t stream_problems = 0;
  // WACZ
  zip_t* zip = nullptr;
  std::vector<zip_uint64_t> entries;
  size_t next_entry = 0;
  ~Impl() {
    stream.reset();
    if (zip) zip_discard(zip);
  }
};

// Opens the next WACZ entry as the current stream; false when none is left.
bool open_next_wacz_entry(ArchiveReader::Impl& impl, const StreamProblem& problem);
// An Input reading one ZIP entry in place.
std::unique_ptr<Input> zip_entry_input(zip_t* zip, zip_uint64_t index, std::string& error);

}  // namespace strata::archive
