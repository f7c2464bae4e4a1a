// bench_read: ArchiveReader throughput (records/s, MB/s, one core) on a real gzip WARC, on the
// same data uncompressed and, with --big, on a >= 1 GB file made by repeating it; baseline in
// the same run: raw zlib decompression of the gzip file. Every scenario runs in its own child
// process (5 runs, median) so its peak RSS (getrusage) is its own.
//
//   bench_read [--data FILE.warc.gz] [--runs N] [--big] [--big-mb MB] [--payloads]
//
// Without --data the largest *.warc.gz under shared/data ($STRATA_SHARED or ../shared) is used.
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "../common/files.hpp"
#include "../common/measure.hpp"
#include "archive/reader.hpp"

namespace fs = std::filesystem;
using strata::archive::ArchiveReader;

namespace {

struct Pass {
  uint64_t records = 0;
  uint64_t bytes_in = 0;   // file bytes
  uint64_t bytes_out = 0;  // decoded bytes (payloads with --payloads, else WARC stream)
};

using Figures = strata::bench::Figures<Pass>;

fs::path shared_data_dir() {
  if (const char* env = std::getenv("STRATA_SHARED")) return fs::path(env) / "data";
  return fs::path(STRATA_SOURCE_DIR).parent_path() / "shared" / "data";
}

fs::path largest_gzip_warc() {
  fs::path best;
  uintmax_t best_size = 0;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(shared_data_dir(), ec);
       it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (ec) break;
    const fs::path& p = it->path();
    std::string name = p.filename().string();
    if (!it->is_regular_file() || !name.ends_with(".warc.gz")) continue;
    if (it->file_size() > best_size) best_size = it->file_size(), best = p;
  }
  return best;
}

// Raw zlib: every gzip member of the file inflated into a reused buffer, nothing parsed.
Pass zlib_pass(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::vector<char> src(1 << 20), dst(1 << 20);
  z_stream z{};
  inflateInit2(&z, 31);
  Pass p;
  bool more = true;
  while (more) {
    in.read(src.data(), static_cast<std::streamsize>(src.size()));
    size_t got = static_cast<size_t>(in.gcount());
    more = got == src.size();
    p.bytes_in += got;
    z.next_in = reinterpret_cast<Bytef*>(src.data());
    z.avail_in = static_cast<uInt>(got);
    while (z.avail_in > 0) {
      z.next_out = reinterpret_cast<Bytef*>(dst.data());
      z.avail_out = static_cast<uInt>(dst.size());
      int rc = inflate(&z, Z_NO_FLUSH);
      p.bytes_out += dst.size() - z.avail_out;
      if (rc == Z_STREAM_END) {
        ++p.records;  // members
        inflateReset(&z);
      } else if (rc != Z_OK && rc != Z_BUF_ERROR) {
        std::fprintf(stderr, "zlib error %d\n", rc);
        std::exit(1);
      }
    }
  }
  inflateEnd(&z);
  return p;
}

Pass reader_pass(const fs::path& path, bool payloads) {
  uint64_t problems = 0;
  auto reader = ArchiveReader::open(path, {}, [&problems](const strata::Problem&) { ++problems; });
  Pass p;
  std::string payload;
  while (reader->next()) {
    ++p.records;
    if (payloads) {
      reader->read_payload(payload);
      p.bytes_out += payload.size();
    }
  }
  p.bytes_in = reader->bytes_read();
  if (problems)
    std::fprintf(stderr, "warning: %llu problems in %s\n",
                 static_cast<unsigned long long>(problems), path.c_str());
  return p;
}

Figures measure(int runs, const std::function<Pass()>& pass) {
  return strata::bench::measure_in_child(runs, pass);
}

void print(const char* name, const Figures& f, uint64_t file_bytes) {
  double mb = 1e6;
  std::printf("%-34s %9llu %12.0f %10.1f %10.1f %9.1f %9ld\n", name,
              static_cast<unsigned long long>(f.pass.records), f.pass.records / f.seconds,
              file_bytes / mb / f.seconds, f.pass.bytes_out / mb / f.seconds, f.seconds * 1e3,
              f.max_rss_kib / 1024);
  std::fflush(stdout);
}

// Decoded copy of a gzip file (all members concatenated).
void gunzip_file(const fs::path& from, const fs::path& to) {
  gzFile in = gzopen(from.c_str(), "rb");
  std::ofstream out(to, std::ios::binary | std::ios::trunc);
  std::vector<char> buf(1 << 20);
  int got;
  while ((got = gzread(in, buf.data(), static_cast<unsigned>(buf.size()))) > 0)
    out.write(buf.data(), got);
  gzclose(in);
}

}  // namespace

int main(int argc, char** argv) {
  fs::path data;
  int runs = 5;
  bool big = false, payloads_only = false;
  uint64_t big_mb = 1024;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--data" && i + 1 < argc)
      data = argv[++i];
    else if (a == "--runs" && i + 1 < argc)
      runs = std::max(1, std::atoi(argv[++i]));
    else if (a == "--big")
      big = true;
    else if (a == "--big-mb" && i + 1 < argc)
      big_mb = std::strtoull(argv[++i], nullptr, 10);
    else if (a == "--payloads")
      payloads_only = true;
    else {
      std::fprintf(stderr,
                   "usage: bench_read [--data FILE.warc.gz] [--runs N] [--big] [--big-mb MB] "
                   "[--payloads]\n");
      return 2;
    }
  }
  if (data.empty()) data = largest_gzip_warc();
  if (data.empty() || !fs::exists(data)) {
    std::fprintf(stderr, "no gzip WARC found (set STRATA_SHARED or pass --data)\n");
    return 1;
  }
  const char* tmp_env = std::getenv("TMPDIR");
  fs::path tmp =
      fs::path(tmp_env && *tmp_env ? tmp_env : "/tmp") / ("bench_read." + std::to_string(getpid()));
  fs::create_directories(tmp);
  fs::path plain = tmp / "data.warc";
  gunzip_file(data, plain);
  uint64_t gz_size = fs::file_size(data), plain_size = fs::file_size(plain);

  std::printf("data: %s (%.2f MB gzip, %.2f MB uncompressed); median of %d runs, one core\n",
              data.c_str(), gz_size / 1e6, plain_size / 1e6, runs);
  std::printf("%-34s %9s %12s %10s %10s %9s %9s\n", "scenario", "records", "records/s", "MB/s file",
              "MB/s out", "ms", "peak MiB");
  print("zlib inflate only (baseline)", measure(runs, [&] { return zlib_pass(data); }), gz_size);
  for (bool payloads : {false, true}) {
    if (payloads_only && !payloads) continue;
    const char* suffix = payloads ? " +payloads" : "";
    print(("reader gzip" + std::string(suffix)).c_str(),
          measure(runs, [&] { return reader_pass(data, payloads); }), gz_size);
    print(("reader uncompressed" + std::string(suffix)).c_str(),
          measure(runs, [&] { return reader_pass(plain, payloads); }), plain_size);
  }
  if (big) {
    fs::path huge = tmp / "big.warc";
    strata::bench::repeat_file(plain, huge, big_mb << 20);
    uint64_t huge_size = fs::file_size(huge);
    std::printf("big: %.2f GB (the uncompressed data repeated)\n", huge_size / 1e9);
    for (bool payloads : {false, true}) {
      if (payloads_only && !payloads) continue;
      print(payloads ? "reader big uncompressed +payloads" : "reader big uncompressed",
            measure(runs, [&] { return reader_pass(huge, payloads); }), huge_size);
    }
  }
  std::error_code ec;
  fs::remove_all(tmp, ec);
  return 0;
}
