#pragma once
// The record model shared by every stage: one archive record (WARC or ARC) with its
// metadata and where it lives on disk, so any later stage (CDX, replay) can fetch it again.
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace strata::archive {

enum class RecordType {
  warcinfo,  // also the ARC filedesc:// header record
  response,  // also ARC records of http(s) URLs
  resource,  // also ARC records of other schemes (dns:, ftp:, filedesc aside)
  request,
  revisit,
  metadata,
  conversion,
  continuation,
  unknown,
};

std::string_view to_string(RecordType type);
RecordType record_type_from_string(std::string_view name);

enum class Format { warc, arc };

using Header = std::pair<std::string, std::string>;  // name as written, value trimmed

// Parsed HTTP response (or request) head of a record's block, when it has one.
struct HttpHead {
  bool present = false;
  int status = 0;               // 0 when unknown or a request
  std::string status_line;      // as written, e.g. "HTTP/1.1 200Ok"
  std::vector<Header> headers;  // in order, duplicates kept, folded lines joined
  std::string mime;             // Content-Type without parameters, lower-cased
  std::string charset;          // charset parameter of Content-Type, lower-cased
  // First header with this name (case-insensitive), or empty.
  std::string_view header(std::string_view name) const;
  // Back to HttpHead{}, keeping the strings' storage (see Record::clear).
  void clear();
};

struct Record {
  Format format = Format::warc;
  std::string version;  // "WARC/1.0", "WARC/0.17", "ARC/1", "ARC/2"
  RecordType type = RecordType::unknown;
  std::string type_name;     // WARC-Type as written
  std::string target_uri;    // WARC-Target-URI (angle brackets stripped) / ARC URL
  std::string date;          // 14 digits (yyyyMMddHHmmss), empty when unparsable
  std::string date_raw;      // as written
  std::string record_id;     // WARC-Record-ID
  std::string content_type;  // WARC Content-Type / ARC mime
  std::string ip_address;
  std::string block_digest;    // e.g. "sha1:2OWF..." as written
  std::string payload_digest;  // WARC-Payload-Digest as written
  std::string refers_to;       // WARC-Refers-To
  std::string refers_to_target_uri;
  std::string refers_to_date;   // 14 digits
  std::string profile;          // WARC-Profile (revisits)
  std::string truncated;        // WARC-Truncated
  std::string warcinfo_id;      // WARC-Warcinfo-ID
  std::vector<Header> headers;  // every WARC header line, in order
  uint64_t content_length = 0;  // declared block length

  // Where the record is: the file, the offset of its first byte (of the gzip member when
  // compressed) and its on-disk length (compressed bytes), exactly what a CDX line needs.
  std::string file;
  uint64_t offset = 0;
  uint64_t length = 0;
  // Non-zero only when the record does not start its own gzip member / zstd frame (whole-file
  // compression): its offset in the decompressed stream; `length` is then its length there.
  uint64_t decoded_offset = 0;
  // Where read_record_at finds the record again: the disk offset, or for a record inside a
  // shared member the decoded offset.
  uint64_t location() const { return decoded_offset ? decoded_offset : offset; }

  HttpHead http;  // filled for records whose block is an HTTP message

  std::string_view header(std::string_view name) const;
  // Back to Record{}, keeping the strings' storage: a reader reads each record into the same
  // Record, and fresh strings cost a dozen allocations per (mostly small) record.
  void clear();
};

}  // namespace strata::archive
