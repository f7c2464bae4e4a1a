// bench_extract: throughput of the extraction stage (extract::extract_archive, one thread) on
// the real corpus (every file under shared/data/archives) and, with --big, on a >= 1 GB WARC
// made by repeating the gzip members of aut's example.warc.gz (written to $TMPDIR, deleted
// after). Every scenario runs in its own child process (median of --runs, default 3) so its
// peak RSS (getrusage) is its own. Scenarios:
//   full        extract_archive, JSONL written to a null stream
//   read        ArchiveReader + read_payload of every response/resource (decompression only)
//   phases      one pass timing each part alone on the payloads just read: decompression
//               (read_payload), HTML (decode_html + references + captions), image (mime sniff,
//               header, SHA-256)
//
//   bench_extract [--data FILE_OR_DIR]... [--runs N] [--big] [--big-mb MB]
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <ostream>
#include <streambuf>
#include <string>
#include <vector>

#include "../common/measure.hpp"
#include "archive/reader.hpp"
#include "core/counters.hpp"
#include "core/digest.hpp"
#include "core/inputs.hpp"
#include "extract/charset.hpp"
#include "extract/extractor.hpp"
#include "extract/image_info.hpp"
#include "extract/mime_sniff.hpp"
#include "extract/page_extract.hpp"

namespace fs = std::filesystem;
using strata::Counters;
using strata::archive::ArchiveReader;
using strata::archive::RecordType;
using Clock = std::chrono::steady_clock;

namespace {

struct Pass {
  uint64_t bytes_in = 0;  // file bytes
  uint64_t records = 0;
  uint64_t images = 0;  // images_found (archived + inline)
  uint64_t refs = 0;    // references written
  uint64_t pages = 0;
  uint64_t digest_chars = 0;
  double t_read = 0, t_html = 0, t_image = 0;  // phases pass only (seconds)
};

using Figures = strata::bench::Figures<Pass>;

class NullBuf : public std::streambuf {
 protected:
  int_type overflow(int_type c) override { return traits_type::not_eof(c); }
  std::streamsize xsputn(const char*, std::streamsize n) override { return n; }
};

fs::path shared_data_dir() {
  if (const char* env = std::getenv("STRATA_SHARED")) return fs::path(env) / "data";
  return fs::path(STRATA_SOURCE_DIR).parent_path() / "shared" / "data";
}

std::vector<fs::path> files_under(const fs::path& root) {
  std::vector<fs::path> out;
  if (fs::is_regular_file(root)) return {root};
  // Archives only, as `strata extract` expands a folder.
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(root, ec);
       it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (ec) break;
    if (it->is_regular_file() && strata::looks_like_archive(it->path())) out.push_back(it->path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

uint64_t total_size(const std::vector<fs::path>& files) {
  uint64_t n = 0;
  for (const fs::path& p : files) n += fs::file_size(p);
  return n;
}

Pass full_pass(const std::vector<fs::path>& files) {
  Counters c;
  NullBuf nb;
  std::ostream out(&nb);
  strata::extract::ExtractOptions o;
  o.collection = "bench";
  for (const fs::path& p : files) strata::extract::extract_archive(p, p.string(), o, out, c, {});
  Pass r;
  r.records = static_cast<uint64_t>(c.get("records_read"));
  r.images = static_cast<uint64_t>(c.get("images_found") + c.get("images_found_inline"));
  r.refs = static_cast<uint64_t>(c.get("refs_written"));
  r.pages = static_cast<uint64_t>(c.get("pages"));
  return r;
}

double since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

// Decompression only, or (timed == true) every part timed on its own.
Pass phase_pass(const std::vector<fs::path>& files, bool timed) {
  Pass r;
  std::string payload;
  Counters c;
  strata::extract::RefOptions ropts;
  for (const fs::path& p : files) {
    auto reader = ArchiveReader::open(p, {}, {});
    if (!reader->usable()) continue;
    while (reader->next()) {
      ++r.records;
      const auto& rec = reader->record();
      if (rec.type != RecordType::response && rec.type != RecordType::resource) continue;
      std::string mime = rec.http.present ? rec.http.mime : rec.content_type;
      auto t0 = Clock::now();
      reader->read_payload(payload);
      r.t_read += since(t0);
      if (!timed) continue;
      bool is_image = mime.find("image") != std::string::npos;
      bool is_html = mime.find("html") != std::string::npos;
      t0 = Clock::now();
      if (is_image || (!is_html && !strata::extract::sniff_image_mime(payload).empty())) {
        ++r.images;
        std::string sniffed = strata::extract::sniff_image_mime(payload);
        auto info = strata::extract::read_image_info(payload);
        if (!sniffed.empty() && info) {
          std::string d = strata::sha256_hex(payload);
          r.digest_chars += d.size();  // keep the digest alive
        }
        r.t_image += since(t0);
      } else if (is_html) {
        ++r.pages;
        auto text = strata::extract::decode_html(payload, rec.http.present ? rec.http.charset : "");
        strata::extract::PageInput in{rec.target_uri, rec.date,   "bench",  p.string(),
                                      rec.offset,     rec.length, text.utf8};
        r.refs += strata::extract::extract_page_full(in, c, ropts).refs.size();
        r.t_html += since(t0);
      }
    }
  }
  return r;
}

Figures measure(int runs, const std::function<Pass()>& pass) {
  return strata::bench::measure_in_child(runs, pass);
}

void report(const char* label, const std::vector<fs::path>& files, int runs) {
  uint64_t bytes = total_size(files);
  std::printf("== %s: %zu files, %.2f MB\n", label, files.size(), bytes / 1e6);
  Figures full = measure(runs, [&] { return full_pass(files); });
  Figures read = measure(runs, [&] { return phase_pass(files, false); });
  Figures ph = measure(runs, [&] { return phase_pass(files, true); });
  const Pass& p = full.pass;
  std::printf("records %llu, pages %llu, images %llu, references %llu\n",
              static_cast<unsigned long long>(p.records), static_cast<unsigned long long>(p.pages),
              static_cast<unsigned long long>(p.images), static_cast<unsigned long long>(p.refs));
  std::printf("%-10s %10s %10s %14s %12s %9s\n", "scenario", "s", "MB/s", "img+refs/s", "ms/image",
              "peak MiB");
  auto row = [&](const char* name, const Figures& f) {
    std::printf("%-10s %10.3f %10.1f %14.0f %12.4f %9ld\n", name, f.seconds,
                bytes / 1e6 / f.seconds, static_cast<double>(p.images + p.refs) / f.seconds,
                p.images ? f.seconds * 1e3 / static_cast<double>(p.images) : 0.0,
                f.max_rss_kib / 1024);
  };
  row("full", full);
  row("read", read);
  row("phases", ph);
  double sum = ph.pass.t_read + ph.pass.t_html + ph.pass.t_image;
  auto share = [&](double t) { return sum > 0 ? 100.0 * t / sum : 0.0; };
  std::printf(
      "phases alone (median run): decompression %.3f s (%.0f %%), html+refs+captions "
      "%.3f s (%.0f %%, %llu pages), image header+sha256 %.3f s (%.0f %%, %llu images, "
      "%.4f ms/image)\n",
      ph.pass.t_read, share(ph.pass.t_read), ph.pass.t_html, share(ph.pass.t_html),
      static_cast<unsigned long long>(ph.pass.pages), ph.pass.t_image, share(ph.pass.t_image),
      static_cast<unsigned long long>(ph.pass.images),
      ph.pass.images ? ph.pass.t_image * 1e3 / static_cast<double>(ph.pass.images) : 0.0);
  // Coverage and mis-encoding figures of the same data (one more run, in this process).
  Counters c;
  NullBuf nb;
  std::ostream out(&nb);
  strata::extract::ExtractOptions o;
  o.collection = "bench";
  for (const fs::path& f : files) strata::extract::extract_archive(f, f.string(), o, out, c, {});
  std::printf("stats %s\n", strata::extract::description_stats(c).dump().c_str());
  std::fflush(stdout);
}

// `from` (a gzip WARC: a series of members) repeated until the copy reaches `bytes`.
void repeat_file(const fs::path& from, const fs::path& to, uint64_t bytes) {
  std::string data;
  {
    std::ifstream in(from, std::ios::binary);
    data.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  std::ofstream out(to, std::ios::binary | std::ios::trunc);
  for (uint64_t done = 0; done < bytes; done += data.size())
    out.write(data.data(), static_cast<std::streamsize>(data.size()));
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<fs::path> data;
  int runs = 3;
  bool big = false;
  uint64_t big_mb = 1024;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--data" && i + 1 < argc)
      data.push_back(argv[++i]);
    else if (a == "--runs" && i + 1 < argc)
      runs = std::max(1, std::atoi(argv[++i]));
    else if (a == "--big")
      big = true;
    else if (a == "--big-mb" && i + 1 < argc)
      big_mb = std::strtoull(argv[++i], nullptr, 10);
    else {
      std::fprintf(stderr,
                   "usage: bench_extract [--data FILE_OR_DIR]... [--runs N] [--big] "
                   "[--big-mb MB]\n");
      return 2;
    }
  }
  std::vector<fs::path> files;
  if (data.empty()) data.push_back(shared_data_dir() / "archives");
  for (const fs::path& d : data)
    for (const fs::path& f : files_under(d)) files.push_back(f);
  if (files.empty()) {
    std::fprintf(stderr, "no input files\n");
    return 1;
  }
  std::printf("bench_extract: one thread, median of %d runs\n", runs);
  report("corpus", files, runs);
  if (big) {
    fs::path example = shared_data_dir() /
                       "archives/archivesunleashed__aut/src/test/resources/warc/example.warc.gz";
    const char* tmp = std::getenv("TMPDIR");
    fs::path out = fs::path(tmp ? tmp : "/tmp") /
                   ("bench_extract_big_" + std::to_string(getpid()) + ".warc.gz");
    repeat_file(example, out, big_mb << 20);
    report("big (example.warc.gz repeated)", {out}, runs);
    fs::remove(out);
  }
  return 0;
}
