#include "archive/warc_writer.hpp"

#include <openssl/rand.h>
#include <zlib.h>

#include <chrono>
#include <cstdio>
#include <stdexcept>

#include <strings.h>

#include "core/digest.hpp"
#include "core/timestamp.hpp"

namespace strata::archive {
namespace {

std::string iso_date(std::string_view date) {
  if (date.empty()) {
    auto now = std::chrono::system_clock::now().time_since_epoch();
    return timestamp_to_iso8601(
        timestamp_from_epoch(std::chrono::duration_cast<std::chrono::seconds>(now).count()));
  }
  if (date.size() == 14 && date.find_first_not_of("0123456789") == std::string_view::npos)
    return timestamp_to_iso8601(date);
  return std::string(date);
}

std::string default_content_type(RecordType type) {
  switch (type) {
    case RecordType::request:
      return "application/http;msgtype=request";
    case RecordType::response:
    case RecordType::revisit:
      return "application/http;msgtype=response";
    case RecordType::warcinfo:
      return "application/warc-fields";
    default:
      return "application/octet-stream";
  }
}

bool is_http(RecordType type) {
  return type == RecordType::request || type == RecordType::response;
}

}  // namespace

std::string new_record_id() {
  unsigned char b[16];
  if (RAND_bytes(b, sizeof b) != 1) throw std::runtime_error("no random bytes for record id");
  b[6] = (b[6] & 0x0f) | 0x40;  // version 4 UUID
  b[8] = (b[8] & 0x3f) | 0x80;
  char text[64];
  std::snprintf(text, sizeof text,
                "<urn:uuid:%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x>",
                b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12],
                b[13], b[14], b[15]);
  return text;
}

std::string http_payload_digest(std::string_view http) {
  size_t end = http.find("\r\n\r\n");
  size_t body = end == std::string_view::npos ? http.size() : end + 4;
  return sha1_warc_digest(http.substr(body));
}

WarcWriter::WarcWriter(const std::filesystem::path& path, bool gzip, int level)
    : file_(path, std::ios::binary | std::ios::trunc), out_(&file_), gzip_(gzip) {
  set_compression_level(level);
  if (!file_) throw std::runtime_error("cannot write " + path.string());
}

WarcWriter::WarcWriter(std::ostream& out, bool gzip, int level) : out_(&out), gzip_(gzip) {
  set_compression_level(level);
}

void WarcWriter::set_compression_level(int level) {
  if (level < Z_DEFAULT_COMPRESSION || level > Z_BEST_COMPRESSION)
    throw std::invalid_argument("gzip compression level out of range: " + std::to_string(level));
  level_ = level;
}

std::string WarcWriter::compress(std::string_view data) const {
  z_stream z{};
  // windowBits 31 = gzip wrapper; one member per record so readers can seek to it.
  if (deflateInit2(&z, level_, Z_DEFLATED, 31, 8, Z_DEFAULT_STRATEGY) != Z_OK)
    throw std::runtime_error("deflateInit2 failed");
  std::string out(deflateBound(&z, data.size()) + 32, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  z.avail_in = static_cast<uInt>(data.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  int rc = deflate(&z, Z_FINISH);
  out.resize(z.total_out);
  deflateEnd(&z);
  if (rc != Z_STREAM_END) throw std::runtime_error("deflate failed");
  return out;
}

WrittenRecord WarcWriter::write(const WarcRecordSpec& spec) {
  WrittenRecord written;
  written.record_id = spec.record_id.empty() ? new_record_id() : spec.record_id;
  std::string head = "WARC/1.1\r\nWARC-Type: " + std::string(to_string(spec.type)) + "\r\n";
  head += "WARC-Record-ID: " + written.record_id + "\r\n";
  head += "WARC-Date: " + iso_date(spec.date) + "\r\n";
  if (!spec.target_uri.empty()) head += "WARC-Target-URI: " + spec.target_uri + "\r\n";
  if (spec.type == RecordType::revisit) {
    head += "WARC-Profile: " +
            (spec.profile.empty()
                 ? std::string("http://netpreserve.org/warc/1.1/revisit/identical-payload-digest")
                 : spec.profile) +
            "\r\n";
    if (!spec.refers_to.empty()) head += "WARC-Refers-To: " + spec.refers_to + "\r\n";
    if (!spec.refers_to_target_uri.empty())
      head += "WARC-Refers-To-Target-URI: " + spec.refers_to_target_uri + "\r\n";
    if (!spec.refers_to_date.empty())
      head += "WARC-Refers-To-Date: " + iso_date(spec.refers_to_date) + "\r\n";
  }
  std::string payload_digest = spec.payload_digest;
  if (payload_digest.empty() && is_http(spec.type))
    payload_digest = http_payload_digest(spec.block);
  if (payload_digest.empty() && spec.type == RecordType::resource)
    payload_digest = sha1_warc_digest(spec.block);
  if (!payload_digest.empty()) head += "WARC-Payload-Digest: " + payload_digest + "\r\n";
  head += "WARC-Block-Digest: " + sha1_warc_digest(spec.block) + "\r\n";
  head += "Content-Type: " +
          (spec.content_type.empty() ? default_content_type(spec.type) : spec.content_type) +
          "\r\n";
  for (const auto& [name, value] : spec.extra_headers) head += name + ": " + value + "\r\n";
  head += "Content-Length: " + std::to_string(spec.block.size()) + "\r\n\r\n";
  written.offset = offset_;
  written.length = put(head + spec.block + "\r\n\r\n");
  return written;
}

WrittenRecord WarcWriter::write_copy(std::string_view version, const std::vector<Header>& headers,
                                     std::string_view block) {
  WrittenRecord written;
  std::string record = std::string(version) + "\r\n";
  for (const auto& [name, value] : headers) {
    if (strcasecmp(name.c_str(), "Content-Length") == 0) continue;
    if (strcasecmp(name.c_str(), "WARC-Record-ID") == 0) written.record_id = value;
    record += name + ": " + value + "\r\n";
  }
  record += "Content-Length: " + std::to_string(block.size()) + "\r\n\r\n";
  record.append(block);
  record += "\r\n\r\n";
  written.offset = offset_;
  written.length = put(std::move(record));
  return written;
}

// Writes one record (compressed as its own member) and returns its length on disk.
uint64_t WarcWriter::put(std::string record) {
  std::string bytes = gzip_ ? compress(record) : std::move(record);
  out_->write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!*out_) throw std::runtime_error("write failed");
  offset_ += bytes.size();
  return bytes.size();
}

WrittenRecord WarcWriter::write_warcinfo(const std::vector<Header>& fields,
                                         std::string_view filename) {
  WarcRecordSpec spec;
  spec.type = RecordType::warcinfo;
  spec.extra_headers.emplace_back("WARC-Filename", std::string(filename));
  for (const auto& [name, value] : fields) spec.block += name + ": " + value + "\r\n";
  return write(spec);
}

WrittenRecord WarcWriter::write_request(std::string_view uri, std::string_view date,
                                        std::string http) {
  WarcRecordSpec spec;
  spec.type = RecordType::request;
  spec.target_uri = uri;
  spec.date = date;
  spec.block = std::move(http);
  return write(spec);
}

WrittenRecord WarcWriter::write_response(std::string_view uri, std::string_view date,
                                         std::string http) {
  WarcRecordSpec spec;
  spec.type = RecordType::response;
  spec.target_uri = uri;
  spec.date = date;
  spec.block = std::move(http);
  return write(spec);
}

WrittenRecord WarcWriter::write_resource(std::string_view uri, std::string_view date,
                                         std::string_view content_type, std::string data) {
  WarcRecordSpec spec;
  spec.type = RecordType::resource;
  spec.target_uri = uri;
  spec.date = date;
  spec.content_type = content_type;
  spec.block = std::move(data);
  return write(spec);
}

WrittenRecord WarcWriter::write_revisit(std::string_view uri, std::string_view date,
                                        std::string http_head, const WrittenRecord& original,
                                        std::string_view original_uri,
                                        std::string_view original_date,
                                        std::string_view payload_digest) {
  WarcRecordSpec spec;
  spec.type = RecordType::revisit;
  spec.target_uri = uri;
  spec.date = date;
  spec.block = std::move(http_head);
  spec.refers_to = original.record_id;
  spec.refers_to_target_uri = original_uri;
  spec.refers_to_date = original_date;
  spec.payload_digest = payload_digest;
  return write(spec);
}

void WarcWriter::flush() {
  out_->flush();
}

}  // namespace strata::archive
