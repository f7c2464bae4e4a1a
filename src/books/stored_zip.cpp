#include "books/stored_zip.hpp"

#include <zlib.h>

#include <stdexcept>

namespace strata::books {
namespace {

void le(std::string& out, uint64_t value, int bytes) {
  for (int i = 0; i < bytes; ++i) out += static_cast<char>((value >> (8 * i)) & 0xFF);
}

constexpr uint16_t kDosTime = 0, kDosDate = (1 << 5) | 1;  // 1980-01-01: reproducible output

}  // namespace

StoredZipWriter::StoredZipWriter(const std::string& path)
    : out_(path, std::ios::binary), path_(path) {
  if (!out_) throw std::runtime_error("cannot write " + path);
}

void StoredZipWriter::put(std::string_view bytes) {
  written_ += bytes.size();
  if (written_ >= 0xFFFFFFFFu) throw std::runtime_error(path_ + ": over 4 GiB");
  out_.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!out_) throw std::runtime_error("cannot write " + path_);
}

void StoredZipWriter::add(const std::string& name, std::string_view data) {
  Entry e{name,
          static_cast<uint32_t>(crc32(0, reinterpret_cast<const Bytef*>(data.data()),
                                      static_cast<uInt>(data.size()))),
          static_cast<uint32_t>(data.size()), static_cast<uint32_t>(written_)};
  std::string head;
  le(head, 0x04034b50, 4);
  le(head, 10, 2);  // version needed
  le(head, 0, 2);   // flags
  le(head, 0, 2);   // stored
  le(head, kDosTime, 2);
  le(head, kDosDate, 2);
  le(head, e.crc, 4);
  le(head, e.size, 4);
  le(head, e.size, 4);
  le(head, name.size(), 2);
  le(head, 0, 2);
  head += name;
  put(head);
  put(data);
  entries_.push_back(std::move(e));
}

void StoredZipWriter::close() {
  const uint64_t start = written_;
  for (const Entry& e : entries_) {
    std::string c;
    le(c, 0x02014b50, 4);
    le(c, 0x031E, 2);  // made by: Unix, 3.0
    le(c, 10, 2);
    le(c, 0, 2);
    le(c, 0, 2);
    le(c, kDosTime, 2);
    le(c, kDosDate, 2);
    le(c, e.crc, 4);
    le(c, e.size, 4);
    le(c, e.size, 4);
    le(c, e.name.size(), 2);
    le(c, 0, 2);  // extra
    le(c, 0, 2);  // comment
    le(c, 0, 2);  // disk
    le(c, 0, 2);  // internal attributes
    le(c, static_cast<uint64_t>(e.name.ends_with('/') ? 040755u : 0100644u) << 16, 4);
    le(c, e.offset, 4);
    c += e.name;
    put(c);
  }
  std::string end;
  le(end, 0x06054b50, 4);
  le(end, 0, 4);
  le(end, entries_.size(), 2);
  le(end, entries_.size(), 2);
  le(end, written_ - start, 4);
  le(end, start, 4);
  le(end, 0, 2);
  put(end);
  out_.close();
  if (!out_) throw std::runtime_error("cannot write " + path_);
}

}  // namespace strata::books
