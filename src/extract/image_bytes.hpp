#pragma once
// Bounds-checked big/little-endian reads over untrusted bytes (internal to image parsing).
// Every read returns false or nullopt past the end instead of touching memory.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace strata::extract::image_detail {

class Bytes {
 public:
  explicit Bytes(std::string_view bytes) : data_(bytes) {}

  size_t size() const { return data_.size(); }
  bool has(size_t offset, size_t count) const {
    return offset <= data_.size() && count <= data_.size() - offset;
  }
  std::optional<uint8_t> u8(size_t offset) const {
    if (!has(offset, 1)) return std::nullopt;
    return static_cast<uint8_t>(data_[offset]);
  }
  std::optional<uint32_t> be(size_t offset, size_t width) const {
    return read(offset, width, true);
  }
  std::optional<uint32_t> le(size_t offset, size_t width) const {
    return read(offset, width, false);
  }
  std::optional<uint32_t> get(size_t offset, size_t width, bool big_endian) const {
    return read(offset, width, big_endian);
  }
  std::optional<uint64_t> be64(size_t offset) const {
    auto hi = be(offset, 4), lo = be(offset + 4, 4);
    if (!hi || !lo) return std::nullopt;
    return (static_cast<uint64_t>(*hi) << 32) | *lo;
  }
  bool starts_with(size_t offset, std::string_view magic) const {
    return has(offset, magic.size()) && data_.substr(offset, magic.size()) == magic;
  }
  std::string_view view() const { return data_; }
  std::string_view sub(size_t offset, size_t count) const {
    if (offset > data_.size()) return {};
    return data_.substr(offset, count);
  }

 private:
  std::optional<uint32_t> read(size_t offset, size_t width, bool big_endian) const {
    if (width == 0 || width > 4 || !has(offset, width)) return std::nullopt;
    uint32_t value = 0;
    for (size_t i = 0; i < width; ++i) {
      uint32_t byte = static_cast<uint8_t>(data_[offset + (big_endian ? i : width - 1 - i)]);
      value = (value << 8) | byte;
    }
    return value;
  }

  std::string_view data_;
};

}  // namespace strata::extract::image_detail
