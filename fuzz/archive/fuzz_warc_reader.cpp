// libFuzzer target: the archive reader must never crash, hang or over-allocate on any input,
// and a reader that does not keep the WARC header lines (extraction's) must give the same
// records, fields and payloads as one that does.
#include <cstddef>
#include <cstdint>
#include <string>
#include <tuple>

#include "archive/reader.hpp"

namespace {

using strata::archive::Record;

// Every field of a Record but its header lines.
auto named_fields(const Record& r) {
  return std::tie(r.format, r.version, r.type, r.type_name, r.target_uri, r.date, r.date_raw,
                  r.record_id, r.content_type, r.ip_address, r.block_digest, r.payload_digest,
                  r.refers_to, r.refers_to_target_uri, r.refers_to_date, r.profile, r.truncated,
                  r.warcinfo_id, r.content_length, r.file, r.offset, r.length, r.decoded_offset,
                  r.http.present, r.http.status, r.http.status_line, r.http.headers, r.http.mime,
                  r.http.charset);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view input(reinterpret_cast<const char*>(data), size);
  strata::archive::ReaderOptions options;
  options.payload_cap = 1 << 20;
  strata::archive::ReaderOptions lean = options;
  lean.keep_warc_headers = false;
  auto ignore = [](const strata::Problem&) {};
  auto reader = strata::archive::ArchiveReader::open_memory(input, "fuzz", options, ignore);
  auto lean_reader = strata::archive::ArchiveReader::open_memory(input, "fuzz", lean, ignore);
  std::string payload, lean_payload;
  for (int i = 0; i < 10000; ++i) {
    bool more = reader->next();
    if (more != lean_reader->next()) __builtin_trap();
    if (!more) break;
    if (named_fields(reader->record()) != named_fields(lean_reader->record())) __builtin_trap();
    reader->read_payload(payload);
    lean_reader->read_payload(lean_payload);
    if (payload != lean_payload) __builtin_trap();
  }
  return 0;
}
