#pragma once
// A file of gzip members, one per WARC record, as crawlers write them. At bench scale this is
// the hot loop, so a record's pieces (WARC head, block, trailer) are compressed without being
// joined, and image bytes shared by many records are deflated once (Deflated) and spliced
// into each member: the member's raw deflate stream is ended byte-aligned by a full flush
// before each spliced segment, and its CRC-32 is combined from theirs (as pigz does).
// Any inflater reads such a member as one ordinary deflate stream.
#include <isa-l/igzip_lib.h>

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

namespace strata::sample {

// Bytes deflated once: a raw deflate segment that ends byte-aligned on a full flush (not
// final, no look-back before it), so it can be spliced into any member; and their CRC-32.
struct Deflated {
  std::string data;
  uint32_t crc = 0;
};

// How hard a stream compresses (ISA-L igzip, far faster than zlib on small records).
enum class Effort {
  fastest,  // igzip level 0 with the static Huffman code: no code tables per block, so a
            // small record costs its bytes, not a tree build (output ~15 % above zlib -1)
  fast      // igzip level 1, a Huffman code per block (about zlib's level 1)
};

// A raw deflate stream reused for many segments and members.
class RawDeflater {
 public:
  explicit RawDeflater(Effort effort);
  RawDeflater(const RawDeflater&) = delete;
  RawDeflater& operator=(const RawDeflater&) = delete;

  void start();                                        // a new stream
  void add(std::string_view bytes, std::string& out);  // compressed bytes appended to out
  void align(std::string& out);                        // ends a segment: byte-aligned, no look-back
  void finish(std::string& out);                       // the final block
  Deflated segment(std::string_view bytes);            // `bytes` as a segment of its own

 private:
  void run(std::string_view bytes, int flush, bool end, std::string& out);

  isal_zstream z_{};
  Effort effort_;
  std::vector<uint8_t> level_buf_;
  std::vector<uint8_t> chunk_;  // output room, reused (growing a string zero-fills it per call)
};

// A piece of a member: its bytes, and optionally the same bytes already deflated.
struct Piece {
  std::string_view bytes;
  const Deflated* deflated = nullptr;
};

struct Member {
  uint64_t offset = 0;  // of the gzip member in the file
  uint64_t length = 0;  // compressed bytes
};

class GzipMemberFile {
 public:
  // Truncates or creates `path`; throws std::runtime_error when it cannot be written.
  GzipMemberFile(const std::filesystem::path& path, Effort effort);
  ~GzipMemberFile();
  GzipMemberFile(const GzipMemberFile&) = delete;
  GzipMemberFile& operator=(const GzipMemberFile&) = delete;

  // Writes the concatenation of `pieces` as one gzip member.
  Member write(std::initializer_list<Piece> pieces);
  void close();
  uint64_t bytes_written() const { return offset_; }

 private:
  void put(std::string_view bytes);
  void flush_pending();

  std::FILE* file_ = nullptr;
  RawDeflater deflater_;
  std::string pending_;  // compressed bytes not yet handed to the file
  uint64_t offset_ = 0;
};

}  // namespace strata::sample
