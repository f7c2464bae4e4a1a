#pragma once
// A ZIP archive written front to back into pieces (no seeking, so it can be streamed), every
// entry stored uncompressed (images are compressed already; WACZ requires stored entries).
// An entry given whole has its size and CRC in its local header; one written in pieces has
// them in a data descriptor after it. Entries are below 4 GiB each (callers split larger
// output); ZIP64 end records are written when there are 65,535 entries or more, or the
// archive passes 4 GiB. Each entry's SHA-256 is computed on the way (WACZ's datapackage).
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/digest.hpp"

namespace strata::exporter {

struct ZipEntry {
  std::string name;
  uint64_t size = 0, offset = 0;
  uint32_t crc = 0;
  bool descriptor = false;
  std::string sha256;  // hex
};

class ZipStream {
 public:
  static constexpr uint64_t kMaxEntry = 0xFFFFFFFEu;
  // A whole entry.
  const ZipEntry& add(std::string name, std::string_view bytes, std::string& out);
  // An entry in pieces: begin, data..., end.
  void begin(std::string name, std::string& out);
  void data(std::string_view bytes, std::string& out);
  const ZipEntry& end(std::string& out);
  // The central directory and the end records; the archive is complete after it.
  void finish(std::string& out);
  uint64_t size() const { return offset_; }
  uint64_t open_entry_size() const { return open_.size; }

 private:
  void local_header(const ZipEntry& e, std::string& out);
  void emit(std::string_view bytes, std::string& out);

  std::vector<ZipEntry> entries_;
  ZipEntry open_;
  Hasher hasher_{DigestAlgorithm::kSha256};
  uint64_t offset_ = 0;
};

}  // namespace strata::exporter
