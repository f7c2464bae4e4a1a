#pragma once
// Streaming reader for WARC (0.17-1.1), ARC (v1, v2), per-record or whole-file gzip, zstd
// WARC and WACZ. Records come one at a time with their metadata and on-disk location;
// blocks are read or skipped on demand and never loaded whole beyond a cap. Malformed input
// is reported to the ProblemSink (file, offset, stable kind) and the reader resynchronises at
// the next record boundary.
#include <array>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>

#include "archive/record.hpp"
#include "core/counters.hpp"
#include "core/problems.hpp"

namespace strata::archive {

struct ReaderOptions {
  size_t payload_cap = 64 << 20;      // read_payload() default cap
  size_t max_header_bytes = 1 << 20;  // longer WARC/HTTP heads are malformed
  // Blocks up to this size are decoded ahead at next(), so Record::length is known at once;
  // for bigger ones it is known after the block was read or skipped.
  size_t prebuffer_bytes = 4 << 20;
  bool parse_http = true;
  bool parse_http_requests = true;  // false: request records' heads are left unparsed
  // false: Record::headers (and Record::header()) stay empty; the fields a Record names are
  // filled all the same. For readers that only use those (extraction).
  bool keep_warc_headers = true;
};

enum class PayloadStatus {
  ok,
  oversized,      // payload larger than the cap: nothing returned, block skipped
  truncated,      // the block is shorter than declared: what there is was returned
  decode_failed,  // chunked/content coding could not be undone: raw entity returned
};
std::string_view to_string(PayloadStatus status);

class Stream;

class ArchiveReader {
 public:
  // Never nullptr: a file that cannot be opened or is not an archive gives one problem and
  // a reader without records. For WACZ each archive/*.warc(.gz) entry is read in turn.
  static std::unique_ptr<ArchiveReader> open(const std::filesystem::path& path,
                                             const ReaderOptions& options, ProblemSink problems);
  // Reads from memory (fuzzers, tests); `data` must outlive the reader.
  static std::unique_ptr<ArchiveReader> open_memory(std::string_view data, std::string name,
                                                    const ReaderOptions& options,
                                                    ProblemSink problems);
  ~ArchiveReader();

  // Advances to the next record (skipping the rest of the current one); false at the end.
  bool next();
  const Record& record() const { return record_; }
  // The HTTP entity body (for HTTP records) or the block, with transfer and content codings
  // undone. Consumes the block: call once per record.
  PayloadStatus read_payload(std::string& out, size_t cap);
  PayloadStatus read_payload(std::string& out) { return read_payload(out, options_.payload_cap); }
  // The raw block as stored (HTTP head included). Consumes the block.
  PayloadStatus read_block(std::string& out, size_t cap);
  // Raw block in pieces for blocks of any size; returns 0 at the end of the block.
  size_t read_block_some(char* out, size_t n);
  // Consumes the rest of the record; Record::length is final afterwards.
  void finish_record();

  const Counters& counters() const;
  uint64_t bytes_read() const;  // compressed bytes read so far
  uint64_t file_size() const { return file_size_; }
  bool usable() const;  // false when the input could not be read as an archive at all

  // Internal (public so the helpers in reader.cpp can build readers).
  struct Impl;
  explicit ArchiveReader(std::unique_ptr<Impl> impl);
  ArchiveReader(std::unique_ptr<Impl> impl, const ReaderOptions& options, ProblemSink problems);

 private:
  friend std::unique_ptr<ArchiveReader> read_record_at(const std::string&, uint64_t,
                                                       const ReaderOptions&, ProblemSink);
  bool next_in_stream();
  std::string_view head_view(size_t want);
  bool read_warc_header();
  bool read_arc_header();
  bool find_record_start();
  bool skip_to_first_record();
  void resync(uint64_t from);
  bool arc() const;
  void bound_block(uint64_t record_start);
  bool next_record_follows();
  void cut_block(uint64_t at, std::string_view why);
  void after_header(uint64_t record_start);
  void settle_length();
  void parse_http();
  void report(uint64_t offset, std::string kind, std::string detail);
  uint64_t block_left() const;

  std::unique_ptr<Impl> impl_;
  ReaderOptions options_;
  ProblemSink problems_;
  // Records counted by type in plain integers, added to counters_ when it is asked for:
  // two map look-ups per record were ~1 % of reading small records.
  mutable Counters counters_;
  mutable std::array<int64_t, static_cast<size_t>(RecordType::unknown) + 1> records_by_type_{};
  Record record_;
  uint64_t file_size_ = 0;
};

// Opens `file` (a path, or "x.wacz#archive/entry.warc.gz") at `offset` (a record's
// Record::location(): the disk offset, or the decoded offset inside whole-file gzip/zstd,
// archive/checkpoints.hpp) and positions the reader on the record that starts exactly
// there: nullptr when there is none.
std::unique_ptr<ArchiveReader> read_record_at(const std::string& file, uint64_t offset,
                                              const ReaderOptions& options, ProblemSink problems);

}  // namespace strata::archive
