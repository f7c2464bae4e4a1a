#pragma once
// Writes WARC/1.1 records, each as its own gzip member (or plain), with WARC-Record-ID,
// WARC-Date, Content-Length, WARC-Block-Digest and, for HTTP records, WARC-Payload-Digest;
// or copies an archived record as it was (write_copy). To a file or any std::ostream (the
// export streams its WARC). Used to generate sample archives, by tests and by the export;
// not a crawler-grade writer.
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

#include "archive/record.hpp"

namespace strata::archive {

struct WarcRecordSpec {
  RecordType type = RecordType::resource;
  std::string record_id;  // "<urn:uuid:...>" as written; empty = a random one (new_record_id)
  std::string target_uri;
  std::string date;                   // WARC-Date: 14 digits or ISO 8601; empty = now
  std::string content_type;           // defaults per type (application/http;msgtype=... for HTTP)
  std::string block;                  // full block: HTTP message for request/response/revisit
  std::vector<Header> extra_headers;  // appended after the standard ones
  // Revisits: the original record and the digest of its payload.
  std::string refers_to;
  std::string refers_to_target_uri;
  std::string refers_to_date;  // 14 digits or ISO 8601
  std::string payload_digest;  // overrides the computed one (revisits)
  std::string profile;         // default: identical-payload-digest (WARC/1.1)
};

struct WrittenRecord {
  std::string record_id;  // "<urn:uuid:...>"
  uint64_t offset = 0;    // of the gzip member (or record) in the file
  uint64_t length = 0;    // bytes on disk
};

class WarcWriter {
 public:
  static constexpr int kDefaultLevel = 6;
  // Truncates or creates `path`; throws std::runtime_error when it cannot be opened.
  // `level` is the zlib compression level (0-9, or Z_DEFAULT_COMPRESSION = -1) of the gzip
  // members; out-of-range levels throw std::invalid_argument.
  explicit WarcWriter(const std::filesystem::path& path, bool gzip = true,
                      int level = kDefaultLevel);
  // Writes to `out`, which must outlive the writer; offsets count from its first record.
  explicit WarcWriter(std::ostream& out, bool gzip = true, int level = kDefaultLevel);

  WrittenRecord write(const WarcRecordSpec& spec);
  // The record `version` ("WARC/1.0") with its WARC header lines as they were, in order, and
  // `block` as stored: a copy of an archived record. Content-Length is written from `block`.
  WrittenRecord write_copy(std::string_view version, const std::vector<Header>& headers,
                           std::string_view block);
  WrittenRecord write_warcinfo(const std::vector<Header>& fields, std::string_view filename);
  WrittenRecord write_request(std::string_view uri, std::string_view date, std::string http);
  WrittenRecord write_response(std::string_view uri, std::string_view date, std::string http);
  WrittenRecord write_resource(std::string_view uri, std::string_view date,
                               std::string_view content_type, std::string data);
  // `http_head` is the HTTP head of the revisit capture (no body).
  WrittenRecord write_revisit(std::string_view uri, std::string_view date, std::string http_head,
                              const WrittenRecord& original, std::string_view original_uri,
                              std::string_view original_date, std::string_view payload_digest);
  void flush();
  uint64_t bytes_written() const { return offset_; }
  // Applies to the records written after the call; same range as the constructor.
  void set_compression_level(int level);
  int compression_level() const { return level_; }

 private:
  std::string compress(std::string_view data) const;
  uint64_t put(std::string record);

  std::ofstream file_;
  std::ostream* out_;
  bool gzip_;
  int level_ = kDefaultLevel;
  uint64_t offset_ = 0;
};

// "<urn:uuid:xxxxxxxx-...>" from random bytes.
std::string new_record_id();
// Payload digest of an HTTP message: SHA-1 of what follows the head (raw, as stored).
std::string http_payload_digest(std::string_view http_message);

}  // namespace strata::archive
