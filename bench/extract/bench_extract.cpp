// bench_extract: throughput of the extraction stage (extract::extract_archive, one thread) on
// the real corpus (every file under shared/data/archives) and, with --big, on a >= 1 GB WARC
// made by repeating the gzip members of aut's example.warc.gz (written to $TMPDIR, deleted
// after). Every scenario runs in its own child process (median of --runs, default 3) so its
// peak RSS (getrusage) is its own. Scenarios:
//   full        extract_archive, JSONL written to a null stream
//   read        ArchiveReader + read_payload of every response/resource (decompression only)
//   phases      one pass timing each part alone on the payloads just read: decompression
//               (read_payload), HTML decoding (decode_html), gumbo parse alone (script
//               contents cut, of the prefix or the whole page, as extraction parsed it) of
//               the pages the prescan does not skip (the floor of the HTML path), references +
//               captions (visit_page_references, which parses again, less the parse alone),
//               image (mime sniff, header, SHA-256), and the page sketch alone
//               (similar::sketch_html of every HTML page)
//   nosketch    full without page sketches (RefOptions::page_sketch = false): their cost
// Besides wall time, every scenario reports its CPU time: on a shared machine the wall time
// includes waiting for a core, the CPU time does not.
//
//   bench_extract [--data FILE_OR_DIR]... [--runs N] [--big] [--big-mb MB] [--no-corpus]
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <ostream>
#include <streambuf>
#include <string>
#include <vector>

#include "../common/files.hpp"
#include "../common/measure.hpp"
#include "archive/reader.hpp"
#include "core/counters.hpp"
#include "core/digest.hpp"
#include "core/inputs.hpp"
#include "extract/charset.hpp"
#include "extract/extractor.hpp"
#include "extract/html_dom.hpp"
#include "extract/html_prefix.hpp"
#include "extract/html_prescan.hpp"
#include "extract/html_script_cut.hpp"
#include "extract/image_info.hpp"
#include "extract/mime_sniff.hpp"
#include "extract/page_extract.hpp"
#include "similar/page_sketch.hpp"
#include "url/url.hpp"

namespace fs = std::filesystem;
using strata::Counters;
using strata::archive::ArchiveReader;
using strata::archive::RecordType;

namespace {

struct Pass {
  uint64_t bytes_in = 0;  // file bytes
  uint64_t records = 0;
  uint64_t images = 0;  // images_found (archived + inline)
  uint64_t refs = 0;    // references written
  uint64_t pages = 0;
  uint64_t digest_chars = 0;
  uint64_t html_nodes = 0;                      // keeps the parse-alone result alive
  uint64_t parsed_pages = 0, parsed_bytes = 0;  // pages the prescan sends to gumbo
  double cpu_s = 0;                             // CPU time of the pass
  // phases pass only (seconds): t_html is visit_page_references, which includes a parse
  double t_read = 0, t_decode = 0, t_parse = 0, t_html = 0, t_image = 0;
  double t_sketch = 0;    // similar::sketch_html alone, every HTML page
  uint64_t sketched = 0;  // full pass: pages whose references carry a sketch
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

double cpu_now() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

// `pass` with its CPU time recorded.
template <typename F>
Pass cpu_timed(F pass) {
  double c0 = cpu_now();
  Pass r = pass();
  r.cpu_s = cpu_now() - c0;
  return r;
}

Pass full_pass(const std::vector<fs::path>& files, bool page_sketch = true) {
  Counters c;
  NullBuf nb;
  std::ostream out(&nb);
  strata::extract::ExtractOptions o;
  o.collection = "bench";
  o.refs.page_sketch = page_sketch;
  for (const fs::path& p : files) strata::extract::extract_archive(p, p.string(), o, out, c, {});
  Pass r;
  r.records = static_cast<uint64_t>(c.get("records_read"));
  r.images = static_cast<uint64_t>(c.get("images_found") + c.get("images_found_inline"));
  r.refs = static_cast<uint64_t>(c.get("refs_written"));
  r.pages = static_cast<uint64_t>(c.get("pages"));
  r.sketched = static_cast<uint64_t>(c.get("pages_sketched"));
  return r;
}

// Phases are timed in CPU time, so waiting for a core on a busy machine does not count.
double since(double cpu_start) {
  return cpu_now() - cpu_start;
}

// Decompression only, or (timed == true) every part timed on its own.
Pass phase_pass(const std::vector<fs::path>& files, bool timed) {
  Pass r;
  std::string payload;
  Counters c;
  strata::extract::RefOptions ropts;
  strata::extract::UrlKeys keys;
  int64_t prefix_pages = 0, reparsed_pages = 0;  // the counters after the last page
  for (const fs::path& p : files) {
    auto reader = ArchiveReader::open(p, {}, {});
    if (!reader->usable()) continue;
    while (reader->next()) {
      ++r.records;
      const auto& rec = reader->record();
      if (rec.type != RecordType::response && rec.type != RecordType::resource) continue;
      std::string mime = rec.http.present ? rec.http.mime : rec.content_type;
      auto t0 = cpu_now();
      reader->read_payload(payload);
      r.t_read += since(t0);
      if (!timed) continue;
      bool is_image = mime.find("image") != std::string::npos;
      bool is_html = mime.find("html") != std::string::npos;
      t0 = cpu_now();
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
        r.t_decode += since(t0);
        t0 = cpu_now();
        strata::extract::PageInput in{rec.target_uri, rec.date,   "bench",  p.string(),
                                      rec.offset,     rec.length, text.utf8};
        strata::extract::visit_page_references(
            in, c, keys, ropts,
            [&r](const strata::extract::PageReferenceView&, std::string_view) { ++r.refs; });
        r.t_html += since(t0);
        // The sketch alone (already inside visit_page_references' time above).
        t0 = cpu_now();
        if (auto s = strata::similar::sketch_html(text.utf8)) r.digest_chars += s->shingles & 1;
        r.t_sketch += since(t0);
        // The parse alone, as extraction parsed the page (the counters say how): none when
        // the prescan skips it, its prefix when that decides, else the whole page (after
        // the prefix when that did not decide). It runs second, so both parses find the
        // allocator equally warm.
        bool in_part = c.get("html_pages_tail_unparsed") > prefix_pages;
        bool part_first = in_part || c.get("html_prefix_reparsed") > reparsed_pages;
        prefix_pages = c.get("html_pages_tail_unparsed");
        reparsed_pages = c.get("html_prefix_reparsed");
        t0 = cpu_now();
        bool parsed = false;
        if (part_first) {
          strata::extract::PagePrefix prefix(text.utf8);
          r.html_nodes += strata::extract::children(prefix.root()).length;
          r.parsed_bytes += prefix.prefix_size();
          parsed = true;
        }
        if (!in_part && (strata::url::has_image_extension(rec.target_uri) ||
                         strata::extract::may_reference_images(text.utf8))) {
          strata::extract::PageDocument doc(text.utf8);
          r.html_nodes += strata::extract::children(doc.root()).length;
          r.parsed_bytes += text.utf8.size();
          parsed = true;
        }
        r.parsed_pages += parsed;
        r.t_parse += since(t0);
      }
    }
  }
  return r;
}

Figures measure(int runs, const std::function<Pass()>& pass) {
  return strata::bench::measure_in_child(runs, pass);
}

// with_phases: also the per-part pass and the coverage figures (skipped on the big file,
// which repeats one archive of the corpus: its parts and coverage are that archive's).
void report(const char* label, const std::vector<fs::path>& files, int runs, bool with_phases) {
  uint64_t bytes = total_size(files);
  std::printf("== %s: %zu files, %.2f MB\n", label, files.size(), bytes / 1e6);
  Figures full = measure(runs, [&] { return cpu_timed([&] { return full_pass(files); }); });
  Figures read = measure(runs, [&] { return cpu_timed([&] { return phase_pass(files, false); }); });
  const Pass& p = full.pass;
  std::printf("records %llu, pages %llu, images %llu, references %llu\n",
              static_cast<unsigned long long>(p.records), static_cast<unsigned long long>(p.pages),
              static_cast<unsigned long long>(p.images), static_cast<unsigned long long>(p.refs));
  std::printf("%-10s %8s %8s %10s %10s %12s %12s %9s\n", "scenario", "wall s", "cpu s", "MB/s wall",
              "MB/s cpu", "img+refs/s", "ms/image", "peak MiB");
  auto row = [&](const char* name, const Figures& f) {
    double cpu = f.pass.cpu_s;
    std::printf("%-10s %8.3f %8.3f %10.1f %10.1f %12.0f %12.4f %9ld\n", name, f.seconds, cpu,
                bytes / 1e6 / f.seconds, bytes / 1e6 / cpu,
                static_cast<double>(p.images + p.refs) / cpu,
                p.images ? cpu * 1e3 / static_cast<double>(p.images) : 0.0, f.max_rss_kib / 1024);
  };
  row("full", full);
  row("read", read);
  // Extraction without page sketches in the same run: what the sketches cost. Runs with and
  // without alternate (2 × `runs` single runs), so a change of load hits both alike.
  std::vector<double> with, without;
  Figures plain;
  for (int r = 0; r < runs; ++r) {
    with.push_back(
        measure(1, [&] { return cpu_timed([&] { return full_pass(files, true); }); }).pass.cpu_s);
    plain = measure(1, [&] { return cpu_timed([&] { return full_pass(files, false); }); });
    without.push_back(plain.pass.cpu_s);
  }
  auto median = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
  };
  row("nosketch", plain);
  double w = median(with), wo = median(without);
  std::printf(
      "page sketches: %llu pages sketched (of %llu); extraction CPU, median of %d alternated runs: "
      "%.4f s with, %.4f s without (%+.2f %%)\n",
      static_cast<unsigned long long>(p.sketched), static_cast<unsigned long long>(p.pages), runs,
      w, wo, wo > 0 ? 100.0 * (w - wo) / wo : 0.0);
  if (!with_phases) return;
  Figures ph = measure(runs, [&] { return cpu_timed([&] { return phase_pass(files, true); }); });
  row("phases", ph);
  const Pass& q = ph.pass;
  std::printf(
      "sketch alone (median run, CPU time): %.4f s for %llu HTML pages, %.1f us/page, %.2f %% of "
      "full extraction's CPU; 1M such pages: %.1f s of sketches\n",
      q.t_sketch, static_cast<unsigned long long>(q.pages),
      q.pages ? q.t_sketch * 1e6 / static_cast<double>(q.pages) : 0.0,
      full.pass.cpu_s > 0 ? 100.0 * q.t_sketch / full.pass.cpu_s : 0.0,
      q.pages ? q.t_sketch * 1e6 / static_cast<double>(q.pages) : 0.0);
  double refs_only = std::max(0.0, q.t_html - q.t_parse);  // visit_page_references less its parse
  double sum = q.t_read + q.t_decode + q.t_html + q.t_image;
  auto share = [&](double t) { return sum > 0 ? 100.0 * t / sum : 0.0; };
  double per_page = q.parsed_pages ? 1e3 / static_cast<double>(q.parsed_pages) : 0.0;
  std::printf(
      "phases alone (median run, CPU time): decompression %.3f s (%.0f %%); html decoding %.3f s "
      "(%.0f %%); gumbo parse %.3f s (%.0f %%, %.2f ms/page, %.1f MB/s of HTML, %llu of %llu "
      "pages); references + "
      "captions beyond the parse %.3f s (%.0f %%); image header+sha256 %.3f s (%.0f %%, %llu "
      "images, %.4f ms/image)\n",
      q.t_read, share(q.t_read), q.t_decode, share(q.t_decode), q.t_parse, share(q.t_parse),
      q.t_parse * per_page,
      q.t_parse > 0 ? static_cast<double>(q.parsed_bytes) / 1e6 / q.t_parse : 0.0,
      static_cast<unsigned long long>(q.parsed_pages), static_cast<unsigned long long>(q.pages),
      refs_only, share(refs_only), q.t_image, share(q.t_image),
      static_cast<unsigned long long>(q.images),
      q.images ? q.t_image * 1e3 / static_cast<double>(q.images) : 0.0);
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

}  // namespace

int main(int argc, char** argv) {
  std::vector<fs::path> data;
  int runs = 3;
  bool big = false, corpus = true;
  uint64_t big_mb = 1024;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--data" && i + 1 < argc)
      data.push_back(argv[++i]);
    else if (a == "--runs" && i + 1 < argc)
      runs = std::max(1, std::atoi(argv[++i]));
    else if (a == "--big")
      big = true;
    else if (a == "--no-corpus")
      corpus = false;
    else if (a == "--big-mb" && i + 1 < argc)
      big_mb = std::strtoull(argv[++i], nullptr, 10);
    else {
      std::fprintf(stderr,
                   "usage: bench_extract [--data FILE_OR_DIR]... [--runs N] [--big] "
                   "[--big-mb MB] [--no-corpus]\n");
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
  if (corpus) report("corpus", files, runs, true);
  if (big) {
    fs::path example = shared_data_dir() /
                       "archives/archivesunleashed__aut/src/test/resources/warc/example.warc.gz";
    const char* tmp = std::getenv("TMPDIR");
    fs::path out = fs::path(tmp ? tmp : "/tmp") /
                   ("bench_extract_big_" + std::to_string(getpid()) + ".warc.gz");
    strata::bench::repeat_file(example, out, big_mb << 20);
    report("big (example.warc.gz repeated)", {out}, runs, false);
    fs::remove(out);
  }
  return 0;
}
