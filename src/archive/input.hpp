#pragma once
// Raw byte sources under the decoders: a file, a memory block (fuzzers, tests) or an entry
// of a ZIP (WACZ) read in place. Read in large blocks, so one virtual call per block.
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>

namespace strata::archive {

class Input {
 public:
  virtual ~Input() = default;
  // Up to n bytes into out; 0 at end of input or on error (see error()).
  virtual size_t read(char* out, size_t n) = 0;
  // Absolute repositioning; false when the source cannot seek.
  virtual bool seek(uint64_t offset) = 0;
  virtual uint64_t size() const = 0;  // 0 when unknown
  // False when seeking back is costly (a compressed ZIP entry is decoded again from its start).
  virtual bool seeks_back_cheaply() const { return true; }
  const std::string& error() const { return error_; }

 protected:
  std::string error_;
};

// nullptr and `error` set when the file cannot be opened.
std::unique_ptr<Input> open_file_input(const std::filesystem::path& path, std::string& error);
// Reads `data` without copying; the caller keeps it alive.
std::unique_ptr<Input> memory_input(std::string_view data);

}  // namespace strata::archive
