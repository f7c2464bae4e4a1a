#include "export/zip_stream.hpp"

#include <zlib.h>

#include <stdexcept>

namespace strata::exporter {
namespace {

constexpr uint16_t kVersion = 45;          // 4.5: ZIP64
constexpr uint16_t kUtf8Names = 1u << 11;  // general purpose flag 11: names are UTF-8
constexpr uint16_t kDescriptor = 1u << 3;  // sizes and CRC follow the data
constexpr uint16_t kDosTime = 0, kDosDate = (1 << 5) | 1;  // 1980-01-01: no clock in the output
constexpr uint32_t kMax32 = 0xFFFFFFFFu;

void le16(std::string& out, uint64_t v) {
  out += static_cast<char>(v & 0xFF);
  out += static_cast<char>((v >> 8) & 0xFF);
}
void le32(std::string& out, uint64_t v) {
  le16(out, v & 0xFFFF);
  le16(out, (v >> 16) & 0xFFFF);
}
void le64(std::string& out, uint64_t v) {
  le32(out, v & kMax32);
  le32(out, v >> 32);
}

uint32_t crc_of(uint32_t crc, std::string_view bytes) {
  return static_cast<uint32_t>(
      crc32_z(crc, reinterpret_cast<const Bytef*>(bytes.data()), bytes.size()));
}

}  // namespace

void ZipStream::emit(std::string_view bytes, std::string& out) {
  out.append(bytes);
  offset_ += bytes.size();
}

void ZipStream::local_header(const ZipEntry& e, std::string& out) {
  std::string h;
  le32(h, 0x04034b50);
  le16(h, kVersion);
  le16(h, kUtf8Names | (e.descriptor ? kDescriptor : 0));
  le16(h, 0);  // stored
  le16(h, kDosTime);
  le16(h, kDosDate);
  le32(h, e.crc);
  le32(h, e.size);
  le32(h, e.size);
  le16(h, e.name.size());
  le16(h, 0);
  h += e.name;
  emit(h, out);
}

const ZipEntry& ZipStream::add(std::string name, std::string_view bytes, std::string& out) {
  if (bytes.size() > kMaxEntry) throw std::length_error("zip entry over 4 GiB: " + name);
  ZipEntry e{std::move(name), bytes.size(), offset_, crc_of(0, bytes), false, sha256_hex(bytes)};
  local_header(e, out);
  emit(bytes, out);
  entries_.push_back(std::move(e));
  return entries_.back();
}

void ZipStream::begin(std::string name, std::string& out) {
  open_ = ZipEntry{std::move(name), 0, offset_, crc_of(0, {}), true, ""};
  local_header(ZipEntry{open_.name, 0, 0, 0, true, ""}, out);
}

void ZipStream::data(std::string_view bytes, std::string& out) {
  if (open_.size + bytes.size() > kMaxEntry)
    throw std::length_error("zip entry over 4 GiB: " + open_.name);
  open_.crc = crc_of(open_.crc, bytes);
  open_.size += bytes.size();
  hasher_.update(bytes);
  emit(bytes, out);
}

const ZipEntry& ZipStream::end(std::string& out) {
  std::string d;
  le32(d, 0x08074b50);
  le32(d, open_.crc);
  le32(d, open_.size);
  le32(d, open_.size);
  emit(d, out);
  open_.sha256 = hasher_.finish_hex();
  entries_.push_back(std::move(open_));
  open_ = {};
  return entries_.back();
}

void ZipStream::finish(std::string& out) {
  const uint64_t directory = offset_;
  std::string cd;
  for (const auto& e : entries_) {
    const bool far = e.offset >= kMax32;
    le32(cd, 0x02014b50);
    le16(cd, kVersion);
    le16(cd, kVersion);
    le16(cd, kUtf8Names | (e.descriptor ? kDescriptor : 0));
    le16(cd, 0);
    le16(cd, kDosTime);
    le16(cd, kDosDate);
    le32(cd, e.crc);
    le32(cd, e.size);
    le32(cd, e.size);
    le16(cd, e.name.size());
    le16(cd, far ? 12 : 0);  // extra: the ZIP64 offset
    le16(cd, 0);             // comment
    le16(cd, 0);             // disk
    le16(cd, 0);             // internal attributes
    le32(cd, 0);             // external attributes
    le32(cd, far ? kMax32 : e.offset);
    cd += e.name;
    if (far) {
      le16(cd, 0x0001);
      le16(cd, 8);
      le64(cd, e.offset);
    }
    if (cd.size() >= (1 << 20)) emit(cd, out), cd.clear();
  }
  emit(cd, out);
  const uint64_t directory_size = offset_ - directory, count = entries_.size();
  std::string end;
  if (count >= 0xFFFF || directory >= kMax32 || directory_size >= kMax32) {
    const uint64_t zip64_end = offset_;
    le32(end, 0x06064b50);
    le64(end, 44);
    le16(end, kVersion);
    le16(end, kVersion);
    le32(end, 0);
    le32(end, 0);
    le64(end, count);
    le64(end, count);
    le64(end, directory_size);
    le64(end, directory);
    le32(end, 0x07064b50);  // ZIP64 end locator
    le32(end, 0);
    le64(end, zip64_end);
    le32(end, 1);
  }
  le32(end, 0x06054b50);
  le16(end, 0);
  le16(end, 0);
  le16(end, std::min<uint64_t>(count, 0xFFFF));
  le16(end, std::min<uint64_t>(count, 0xFFFF));
  le32(end, std::min<uint64_t>(directory_size, kMax32));
  le32(end, std::min<uint64_t>(directory, kMax32));
  le16(end, 0);
  emit(end, out);
}

}  // namespace strata::exporter
