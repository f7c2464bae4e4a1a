#include "merge/run_file.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace strata::merge {
namespace {

constexpr size_t kStage = 1 << 16;
// Linked 64 KB blocks (records are ~300 bytes, so little ratio is lost) and 64 KB read
// buffers keep a reader under ~300 KB: a 100M-record merge reads hundreds of runs at once.
constexpr LZ4F_preferences_t kPreferences = {
    {LZ4F_max64KB, LZ4F_blockLinked, LZ4F_noContentChecksum, LZ4F_frame, 0, 0,
     LZ4F_noBlockChecksum},
    0,  // default (fastest standard) level: spill I/O is not worth more CPU
    0,
    0,
    {0, 0, 0}};
constexpr size_t kReadBuffer = 1 << 16;

size_t check(size_t rc, const char* what) {
  if (LZ4F_isError(rc)) throw std::runtime_error(std::string(what) + LZ4F_getErrorName(rc));
  return rc;
}

}  // namespace

RunFileWriter::RunFileWriter(const std::filesystem::path& path)
    : path_(path), file_(std::fopen(path.c_str(), "wb")) {
  if (!file_) throw std::runtime_error("cannot write merge run " + path.string());
  check(LZ4F_createCompressionContext(&ctx_, LZ4F_VERSION), "lz4: ");
  compressed_.resize(LZ4F_compressBound(kStage, &kPreferences));
  staged_.reserve(kStage);
}

RunFileWriter::~RunFileWriter() {
  LZ4F_freeCompressionContext(ctx_);
}

void RunFileWriter::put(size_t bytes) {
  written_ += std::fwrite(compressed_.data(), 1, bytes, file_.get());
}

void RunFileWriter::begin_frame() {
  put(check(LZ4F_compressBegin(ctx_, compressed_.data(), compressed_.size(), &kPreferences),
            "lz4 compression: "));
  in_frame_ = true;
}

void RunFileWriter::write(std::string_view bytes) {
  if (staged_.size() + bytes.size() > kStage) compress();
  staged_.append(bytes);
}

void RunFileWriter::compress() {
  if (!in_frame_) begin_frame();
  for (size_t pos = 0; pos < staged_.size(); pos += kStage) {
    size_t n = std::min(kStage, staged_.size() - pos);
    put(check(LZ4F_compressUpdate(ctx_, compressed_.data(), compressed_.size(),
                                  staged_.data() + pos, n, nullptr),
              "lz4 compression: "));
  }
  staged_.clear();
}

uint64_t RunFileWriter::end_frame() {
  compress();
  put(check(LZ4F_compressEnd(ctx_, compressed_.data(), compressed_.size(), nullptr),
            "lz4 compression: "));
  in_frame_ = false;
  return written_;
}

void RunFileWriter::close() {
  if (std::fflush(file_.get()) != 0 || std::ferror(file_.get()))
    throw std::runtime_error("cannot write merge run " + path_.string());
  file_.reset();
}

RunFileReader::RunFileReader(const std::filesystem::path& path, uint64_t begin, uint64_t end)
    : file_(std::fopen(path.c_str(), "rb")), left_(end - begin) {
  if (!file_ || std::setvbuf(file_.get(), nullptr, _IONBF, 0) != 0 ||  // input_ buffers
      std::fseek(file_.get(), static_cast<long>(begin), SEEK_SET) != 0)
    throw std::runtime_error("cannot read merge run " + path.string());
  check(LZ4F_createDecompressionContext(&ctx_, LZ4F_VERSION), "lz4: ");
  input_.resize(kReadBuffer);
  output_.resize(kReadBuffer);
}

RunFileReader::~RunFileReader() {
  LZ4F_freeDecompressionContext(ctx_);
}

void RunFileReader::refill() {
  if (frame_done_) throw std::runtime_error("merge run: read past the end of a partition");
  if (in_pos_ == in_size_ && left_ > 0) {
    size_t want = static_cast<size_t>(std::min<uint64_t>(left_, input_.size()));
    size_t got = std::fread(input_.data(), 1, want, file_.get());
    if (got == 0) throw std::runtime_error("merge run truncated");
    left_ -= got;
    in_pos_ = 0, in_size_ = got;
  }
  // With all input read, LZ4 may still hold decoded bytes of its last block to hand out.
  size_t out_size = output_.size(), in_size = in_size_ - in_pos_;
  size_t rc = check(
      LZ4F_decompress(ctx_, output_.data(), &out_size, input_.data() + in_pos_, &in_size, nullptr),
      "lz4 decompression: ");
  if (rc != 0 && in_size == 0 && out_size == 0) throw std::runtime_error("merge run truncated");
  in_pos_ += in_size;
  frame_done_ = rc == 0;
  out_pos_ = 0;
  out_size_ = out_size;
}

bool RunFileReader::at_end() {
  while (out_pos_ == out_size_ && !frame_done_) refill();
  return out_pos_ == out_size_;
}

void RunFileReader::read(char* to, size_t n) {
  while (n > 0) {
    if (out_pos_ == out_size_) refill();
    size_t take = std::min(n, out_size_ - out_pos_);
    std::memcpy(to, output_.data() + out_pos_, take);
    out_pos_ += take;
    to += take;
    n -= take;
  }
}

}  // namespace strata::merge
