#include <zip.h>

#include <cstring>

#include "archive/reader_impl.hpp"

namespace strata::archive {
namespace {

class ZipEntryInput final : public Input {
 public:
  ZipEntryInput(zip_file_t* file, uint64_t size) : file_(file), size_(size) {}
  ~ZipEntryInput() override { zip_fclose(file_); }
  size_t read(char* out, size_t n) override {
    zip_int64_t got = zip_fread(file_, out, n);
    if (got < 0) {
      error_ = zip_error_strerror(zip_file_get_error(file_));
      return 0;
    }
    return static_cast<size_t>(got);
  }
  // Works for stored entries (the WACZ norm); deflated ones cannot seek.
  bool seek(uint64_t offset) override {
    return zip_fseek(file_, static_cast<zip_int64_t>(offset), SEEK_SET) == 0;
  }
  uint64_t size() const override { return size_; }

 private:
  zip_file_t* file_;
  uint64_t size_;
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
  return std::make_unique<ZipEntryInput>(file, st.size);
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
