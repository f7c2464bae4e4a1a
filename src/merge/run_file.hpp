#pragma once
// Spilled merge runs on disk: each partition one LZ4 frame, so a reader can seek to its
// partition. Sorted records compress several times (keys and fields repeat), which is what
// lets 100M records spill within the disk of one machine; LZ4 does it at a fraction of
// zstd's CPU (both ways), and the merge is CPU-bound, not disk-bound.
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>

#include <lz4frame.h>

namespace strata::merge {

struct FileCloser {
  void operator()(std::FILE* f) const { std::fclose(f); }
};
using FilePtr = std::unique_ptr<std::FILE, FileCloser>;

class RunFileWriter {
 public:
  explicit RunFileWriter(const std::filesystem::path& path);
  ~RunFileWriter();
  RunFileWriter(const RunFileWriter&) = delete;
  RunFileWriter& operator=(const RunFileWriter&) = delete;
  void write(std::string_view bytes);
  // Ends the current frame; returns the file size after it (the next frame's offset).
  uint64_t end_frame();
  // Throws std::runtime_error when a write failed.
  void close();

 private:
  void begin_frame();
  void compress();
  void put(size_t bytes);

  std::filesystem::path path_;
  FilePtr file_;
  LZ4F_cctx* ctx_ = nullptr;
  std::string staged_, compressed_;
  bool in_frame_ = false;
  uint64_t written_ = 0;
};

// Reads the frame at [begin, end) of a run file.
class RunFileReader {
 public:
  RunFileReader(const std::filesystem::path& path, uint64_t begin, uint64_t end);
  ~RunFileReader();
  RunFileReader(const RunFileReader&) = delete;
  RunFileReader& operator=(const RunFileReader&) = delete;
  // True when the frame has no more bytes.
  bool at_end();
  // Throws std::runtime_error when fewer than n bytes are left.
  void read(char* to, size_t n);

 private:
  void refill();

  FilePtr file_;
  LZ4F_dctx* ctx_ = nullptr;
  uint64_t left_;  // compressed bytes not yet read from the file
  std::string input_, output_;
  size_t in_pos_ = 0, in_size_ = 0;
  size_t out_pos_ = 0, out_size_ = 0;
  bool frame_done_ = false;
};

}  // namespace strata::merge
