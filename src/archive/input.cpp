#include "archive/input.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace strata::archive {
namespace {

class FileInput final : public Input {
 public:
  FileInput(int fd, uint64_t size) : fd_(fd), size_(size) {}
  ~FileInput() override { ::close(fd_); }
  size_t read(char* out, size_t n) override {
    for (;;) {
      ssize_t got = ::read(fd_, out, n);
      if (got >= 0) return static_cast<size_t>(got);
      if (errno == EINTR) continue;
      error_ = std::strerror(errno);
      return 0;
    }
  }
  bool seek(uint64_t offset) override {
    return ::lseek(fd_, static_cast<off_t>(offset), SEEK_SET) == static_cast<off_t>(offset);
  }
  uint64_t size() const override { return size_; }

 private:
  int fd_;
  uint64_t size_;
};

class MemoryInput final : public Input {
 public:
  explicit MemoryInput(std::string_view data) : data_(data) {}
  size_t read(char* out, size_t n) override {
    size_t take = std::min(n, data_.size() - pos_);
    std::memcpy(out, data_.data() + pos_, take);
    pos_ += take;
    return take;
  }
  bool seek(uint64_t offset) override {
    if (offset > data_.size()) return false;
    pos_ = offset;
    return true;
  }
  uint64_t size() const override { return data_.size(); }

 private:
  std::string_view data_;
  size_t pos_ = 0;
};

}  // namespace

std::unique_ptr<Input> open_file_input(const std::filesystem::path& path, std::string& error) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    error = std::strerror(errno);
    return nullptr;
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    error = "not a regular file";
    ::close(fd);
    return nullptr;
  }
  ::posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
  return std::make_unique<FileInput>(fd, static_cast<uint64_t>(st.st_size));
}

std::unique_ptr<Input> memory_input(std::string_view data) {
  return std::make_unique<MemoryInput>(data);
}

}  // namespace strata::archive
