#pragma once
// A ZIP written as `zip -r -0` writes one: every member stored (no compression), streamed to
// the file as it comes, so a book's crops never sit in memory together.
//
// Failure contract: throws std::runtime_error when the file cannot be written or passes the
// 4 GiB a ZIP without ZIP64 can hold.
#include <cstdint>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

namespace strata::books {

class StoredZipWriter {
 public:
  explicit StoredZipWriter(const std::string& path);
  void add(const std::string& name, std::string_view data);  // a name ending in '/' is a folder
  void close();

 private:
  struct Entry {
    std::string name;
    uint32_t crc = 0, size = 0, offset = 0;
  };
  std::ofstream out_;
  std::string path_;
  std::vector<Entry> entries_;
  uint64_t written_ = 0;
  void put(std::string_view bytes);
};

}  // namespace strata::books
