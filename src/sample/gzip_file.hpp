#pragma once
// A file of gzip members, one per WARC record, as crawlers write them. The deflate stream is
// reset and reused between members, and a record's pieces (WARC head, block, trailer) are
// compressed without first being joined, because at bench scale this is the hot loop.
#include <zlib.h>

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <initializer_list>
#include <string>
#include <string_view>

namespace strata::sample {

struct Member {
  uint64_t offset = 0;  // of the gzip member in the file
  uint64_t length = 0;  // compressed bytes
};

class GzipMemberFile {
 public:
  // Truncates or creates `path`; throws std::runtime_error when it cannot be written.
  GzipMemberFile(const std::filesystem::path& path, int level);
  ~GzipMemberFile();
  GzipMemberFile(const GzipMemberFile&) = delete;
  GzipMemberFile& operator=(const GzipMemberFile&) = delete;

  // Writes the concatenation of `pieces` as one gzip member.
  Member write(std::initializer_list<std::string_view> pieces);
  void close();
  uint64_t bytes_written() const { return offset_; }

 private:
  void deflate_piece(std::string_view piece, int flush);

  std::FILE* file_ = nullptr;
  z_stream z_{};
  std::string out_;  // compressed bytes of the current member
  uint64_t offset_ = 0;
};

}  // namespace strata::sample
