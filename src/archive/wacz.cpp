#include <zip.h>

#include <algorithm>
#include <cstring>

#include "archive/reader_impl.hpp"

namespace strata::archive {
namespace {

class ZipEntryInput final : public Input {
 public:
  ZipEntryInput(zip_t* zip, zip_uint64_t index, zip_file_t* file, uint64_t size, bool stored)
      : zip_(zip), index_(index), file_(file), size_(size), stored_(stored) {}
  ~ZipEntryInput() override {
    if (file_) zip_fclose(file_);
  }
  size_t read(char* out, size_t n) override {
    if (!file_) return 0;
    zip_int64_t got = zip_fread(file_, out, n);
    if (got < 0) {
      error_ = zip_error_strerror(zip_file_get_error(file_));
      return 0;
    }
    pos_ += static_cast<uint64_t>(got);
    return static_cast<size_t>(got);
  }
  // Stored entries (the WACZ norm) seek in place. Compressed ones cannot (libzip would put the
  // file in an error state): they are reopened when going back and decoded up to the offset.
  bool seek(uint64_t offset) override {
    if (offset > size_ || !file_) return false;
    if (stored_) {
      if (zip_fseek(file_, static_cast<zip_int64_t>(offset), SEEK_SET) != 0) return false;
      pos_ = offset;
      return true;
    }
    if (offset < pos_) {
      zip_fclose(file_);
      pos_ = 0;
      file_ = zip_fopen_index(zip_, index_, 0);
      if (!file_) return false;
    }
    char sink[1 << 16];
    while (pos_ < offset)
      if (read(sink, static_cast<size_t>(std::min<uint64_t>(offset - pos_, sizeof sink))) == 0)
        return false;
    return true;
  }
  uint64_t size() const override { return size_; }
  bool seeks_back_cheaply() const override { return stored_; }

 private:
  zip_t* zip_;
  zip_uint64_t index_;
  zip_file_t* file_;
  uint64_t size_;
  bool stored_;
  uint64_t pos_ = 0;
};

}  // namespace

std::unique_ptr<Input> zip_entry_input(zip_t* zip, zip_uint64_t index, std::string& error) {
  zip_stat_t st;
  zip_stat_init(&st);
  if (zip_stat_index(zip, index, 0, &st) != 0) {
    error = zip_strerror(zip);
    return nullptr;
  }
  zip_file_t* file = zip_fopen_index(zip, index, 0);
  if (!file) {
    error = zip_strerror(zip);
    return nullptr;
  }
  bool stored = (st.valid & ZIP_STAT_COMP_METHOD) && st.comp_method == ZIP_CM_STORE &&
                !((st.valid & ZIP_STAT_ENCRYPTION_METHOD) && st.encryption_method != ZIP_EM_NONE);
  return std::make_unique<ZipEntryInput>(zip, index, file, st.size, stored);
}

bool open_next_wacz_entry(ArchiveReader::Impl& impl, const StreamProblem& problem) {
  while (impl.zip && impl.next_entry < impl.entries.size()) {
    zip_uint64_t index = impl.entries[impl.next_entry++];
    if (impl.stream) impl.bytes_before += impl.stream->compressed_position();
    impl.stream.reset();
    impl.dialect = Dialect::unknown;
    impl.have_record = false;
    impl.file = impl.path + "#" + zip_get_name(impl.zip, index, 0);
    std::string error;
    auto input = zip_entry_input(impl.zip, index, error);
    if (!input) {
      problem(0, "unreadable_entry", error);
      continue;
    }
    impl.stream = std::make_unique<Stream>(std::move(input), problem);
    return true;
  }
  return false;
}

}  // namespace strata::archive
