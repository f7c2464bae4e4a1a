#include "testing/containers.hpp"

#include <gtest/gtest.h>
#include <zip.h>
#include <zlib.h>
#include <zstd.h>

#include <fstream>
#include <iterator>

namespace strata::testing {

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write_file(const std::filesystem::path& path, std::string_view data) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(data.data(), static_cast<std::streamsize>(data.size()));
  EXPECT_TRUE(out.good()) << path;
}

std::string gunzip_all(std::string_view data) {
  z_stream z{};
  inflateInit2(&z, 31);
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  z.avail_in = static_cast<uInt>(data.size());
  std::string out;
  char buf[1 << 16];
  for (;;) {
    z.next_out = reinterpret_cast<Bytef*>(buf);
    z.avail_out = sizeof buf;
    int rc = inflate(&z, Z_NO_FLUSH);
    out.append(buf, sizeof buf - z.avail_out);
    if (rc == Z_STREAM_END && z.avail_in > 0) {
      inflateReset(&z);
    } else if (rc != Z_OK) {
      EXPECT_EQ(rc, Z_STREAM_END);
      break;
    }
  }
  inflateEnd(&z);
  return out;
}

std::string gzip_member(std::string_view data) {
  z_stream z{};
  deflateInit2(&z, 6, Z_DEFLATED, 31, 8, Z_DEFAULT_STRATEGY);
  std::string out(deflateBound(&z, data.size()) + 32, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  z.avail_in = static_cast<uInt>(data.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  EXPECT_EQ(deflate(&z, Z_FINISH), Z_STREAM_END);
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}

namespace {

std::string zstd_frame(std::string_view data) {
  std::string out(ZSTD_compressBound(data.size()), '\0');
  size_t n = ZSTD_compress(out.data(), out.size(), data.data(), data.size(), 3);
  EXPECT_FALSE(ZSTD_isError(n));
  out.resize(n);
  return out;
}

template <typename Compress>
std::string in_chunks(std::string_view data, size_t chunk, Compress compress) {
  if (chunk == 0) return compress(data);
  std::string out;
  for (size_t at = 0; at < data.size(); at += chunk) out += compress(data.substr(at, chunk));
  return out;
}

}  // namespace

std::string gzip_whole(std::string_view data, size_t chunk) {
  return in_chunks(data, chunk, gzip_member);
}

std::string zstd_whole(std::string_view data, size_t chunk) {
  return in_chunks(data, chunk, zstd_frame);
}

void write_zip(const std::filesystem::path& path,
               const std::vector<std::pair<std::string, std::string>>& entries,
               bool deflate_archives) {
  int err = 0;
  zip_t* zip = zip_open(path.c_str(), ZIP_CREATE | ZIP_TRUNCATE, &err);
  ASSERT_NE(zip, nullptr) << err;
  for (const auto& [name, data] : entries) {
    zip_source_t* src = zip_source_buffer(zip, data.data(), data.size(), 0);
    ASSERT_NE(src, nullptr);
    zip_int64_t index = zip_file_add(zip, name.c_str(), src, ZIP_FL_ENC_UTF_8);
    ASSERT_GE(index, 0) << zip_strerror(zip);
    bool archive = name.starts_with("archive/");
    zip_set_file_compression(zip, static_cast<zip_uint64_t>(index),
                             archive && !deflate_archives ? ZIP_CM_STORE : ZIP_CM_DEFLATE, 0);
  }
  ASSERT_EQ(zip_close(zip), 0) << zip_strerror(zip);
}

}  // namespace strata::testing
