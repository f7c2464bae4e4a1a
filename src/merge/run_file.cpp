#include "merge/run_file.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace strata::merge {
namespace {

constexpr size_t kStage = 1 << 16;
constexpr int kLevel = 1;  // fastest standard level: spill I/O is not worth more CPU
// A 64 KB window (records are ~300 bytes, so little ratio is lost) and 64 KB read buffers keep
// a reader under ~250 KB: a 100M-record merge reads hundreds of runs at once.
constexpr int kWindowLog = 16;
constexpr size_t kReadBuffer = 1 << 16;

void check(size_t rc, const char* what) {
  if (ZSTD_isError(rc)) throw std::runtime_error(std::string(what) + ZSTD_getErrorName(rc));
}

}  // namespace

RunFileWriter::RunFileWriter(const std::filesystem::path& path)
    : path_(path), file_(std::fopen(path.c_str(), "wb")), ctx_(ZSTD_createCCtx()) {
  if (!file_) throw std::runtime_error("cannot write merge run " + path.string());
  check(ZSTD_CCtx_setParameter(ctx_, ZSTD_c_compressionLevel, kLevel), "zstd: ");
  check(ZSTD_CCtx_setParameter(ctx_, ZSTD_c_windowLog, kWindowLog), "zstd: ");
  compressed_.resize(ZSTD_CStreamOutSize());
  staged_.reserve(kStage);
}

RunFileWriter::~RunFileWriter() {
  ZSTD_freeCCtx(ctx_);
}

void RunFileWriter::write(std::string_view bytes) {
  if (staged_.size() + bytes.size() > kStage) compress(ZSTD_e_continue);
  staged_.append(bytes);
}

void RunFileWriter::compress(ZSTD_EndDirective mode) {
  ZSTD_inBuffer in{staged_.data(), staged_.size(), 0};
  size_t remaining;
  do {
    ZSTD_outBuffer out{compressed_.data(), compressed_.size(), 0};
    remaining = ZSTD_compressStream2(ctx_, &out, &in, mode);
    check(remaining, "zstd compression: ");
    written_ += std::fwrite(compressed_.data(), 1, out.pos, file_.get());
  } while (mode == ZSTD_e_end ? remaining != 0 : in.pos < in.size);
  staged_.clear();
}

uint64_t RunFileWriter::end_frame() {
  compress(ZSTD_e_end);
  return written_;
}

void RunFileWriter::close() {
  if (std::fflush(file_.get()) != 0 || std::ferror(file_.get()))
    throw std::runtime_error("cannot write merge run " + path_.string());
  file_.reset();
}

RunFileReader::RunFileReader(const std::filesystem::path& path, uint64_t begin, uint64_t end)
    : file_(std::fopen(path.c_str(), "rb")), ctx_(ZSTD_createDCtx()), left_(end - begin) {
  if (!file_ || std::setvbuf(file_.get(), nullptr, _IONBF, 0) != 0 ||  // input_ buffers
      std::fseek(file_.get(), static_cast<long>(begin), SEEK_SET) != 0)
    throw std::runtime_error("cannot read merge run " + path.string());
  input_.resize(kReadBuffer);
  output_.resize(kReadBuffer);
  in_ = {input_.data(), 0, 0};
}

RunFileReader::~RunFileReader() {
  ZSTD_freeDCtx(ctx_);
}

void RunFileReader::refill() {
  if (frame_done_) throw std::runtime_error("merge run: read past the end of a partition");
  if (in_.pos == in_.size) {
    size_t want = static_cast<size_t>(std::min<uint64_t>(left_, input_.size()));
    size_t got = want ? std::fread(input_.data(), 1, want, file_.get()) : 0;
    if (got == 0) throw std::runtime_error("merge run truncated");
    left_ -= got;
    in_ = {input_.data(), got, 0};
  }
  ZSTD_outBuffer out{output_.data(), output_.size(), 0};
  size_t rc = ZSTD_decompressStream(ctx_, &out, &in_);
  check(rc, "zstd decompression: ");
  frame_done_ = rc == 0;
  out_pos_ = 0;
  out_size_ = out.pos;
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
