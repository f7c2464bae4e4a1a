#include "sample/gzip_file.hpp"

#include <stdexcept>

namespace strata::sample {

GzipMemberFile::GzipMemberFile(const std::filesystem::path& path, int level) {
  // windowBits 31 = gzip wrapper; memLevel 9 is zlib's fastest.
  if (deflateInit2(&z_, level, Z_DEFLATED, 31, 9, Z_DEFAULT_STRATEGY) != Z_OK)
    throw std::runtime_error("deflateInit2 failed");
  file_ = std::fopen(path.c_str(), "wb");
  if (!file_) {
    deflateEnd(&z_);
    throw std::runtime_error("cannot write " + path.string());
  }
  std::setvbuf(file_, nullptr, _IOFBF, 1 << 20);
}

GzipMemberFile::~GzipMemberFile() {
  if (file_) std::fclose(file_);
  deflateEnd(&z_);
}

void GzipMemberFile::deflate_piece(std::string_view piece, int flush) {
  z_.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(piece.data()));
  z_.avail_in = static_cast<uInt>(piece.size());
  int rc;
  do {
    size_t used = out_.size();
    out_.resize(used + deflateBound(&z_, z_.avail_in) + 64);
    z_.next_out = reinterpret_cast<Bytef*>(out_.data() + used);
    z_.avail_out = static_cast<uInt>(out_.size() - used);
    rc = deflate(&z_, flush);
    out_.resize(out_.size() - z_.avail_out);
    if (rc == Z_STREAM_ERROR) throw std::runtime_error("deflate failed");
  } while (z_.avail_in > 0 || (flush == Z_FINISH && rc != Z_STREAM_END));
}

Member GzipMemberFile::write(std::initializer_list<std::string_view> pieces) {
  out_.clear();
  size_t left = pieces.size();
  for (std::string_view piece : pieces)
    if (--left == 0 || !piece.empty()) deflate_piece(piece, left ? Z_NO_FLUSH : Z_FINISH);
  deflateReset(&z_);
  if (std::fwrite(out_.data(), 1, out_.size(), file_) != out_.size())
    throw std::runtime_error("write failed");
  Member m{offset_, out_.size()};
  offset_ += out_.size();
  return m;
}

void GzipMemberFile::close() {
  if (file_ && std::fclose(file_) != 0) throw std::runtime_error("close failed");
  file_ = nullptr;
}

}  // namespace strata::sample
