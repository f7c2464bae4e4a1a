// bench_books [--page FILE.jp2] [--scale K] [--runs R]
// 1. A real IA page scan (default: shared/data/books/.../SmallHouses..._0015.jp2, 6540 x 8565
//    RGB, 56 Mpx): JPEG crops of 1000 x 1000 and 2000 x 1500 regions by region decode (Strata)
//    against the baseline of a full-page decode then crop (what IA's hocr-to-epub does), and
//    one 5500 x 4000 region in 512-row strips streamed into the JPEG encoder against one call,
//    and the whole page as one plate: crops per CPU second, peak RSS.
// 2. A generated book (src/books/synthetic, pages 640K x 880K, lossless JP2) through
//    `strata books extract` (default mode, size/aspect filters off): crops per CPU second, peak
//    RSS, bytes read from the page ZIP against the bytes of the members it needed.
// Each measured pass runs R times (default 3) in a child process; the median is printed.
#include <sys/resource.h>

#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>

#include "../common/measure.hpp"
#include "books/extract.hpp"
#include "books/item.hpp"
#include "books/jp2.hpp"
#include "books/jpeg.hpp"
#include "books/synthetic.hpp"

using namespace strata;
using namespace strata::books;
namespace fs = std::filesystem;

namespace {

struct Pass {
  double cpu_seconds = 0;
  long crops = 0;
  long long jpeg_bytes = 0, page_bytes_read = 0, process_bytes_read = 0;
};

double cpu_seconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_utime.tv_sec + usage.ru_stime.tv_sec +
         (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

// Bytes the process read through read(2) and friends (/proc/self/io rchar): every file.
long long bytes_read_by_process() {
  FILE* f = std::fopen("/proc/self/io", "r");
  long long rchar = 0;
  if (f) {
    if (std::fscanf(f, "rchar: %lld", &rchar) != 1) rchar = 0;
    std::fclose(f);
  }
  return rchar;
}

void print(const char* what, const bench::Figures<Pass>& f) {
  std::printf(
      "%-44s crops %3ld  wall %6.2f s  cpu %6.2f s  %5.2f crops/cpu-s  peak RSS %5ld MiB  jpeg "
      "%lld kB\n",
      what, f.pass.crops, f.seconds, f.pass.cpu_seconds, f.pass.crops / f.pass.cpu_seconds,
      f.max_rss_kib / 1024, f.pass.jpeg_bytes / 1000);
}

void bench_page(const std::string& data, int runs) {
  const Jp2Info info = jp2_info(data);
  std::printf("page %d x %d, %d components, %zu bytes\n", info.width, info.height, info.components,
              data.size());
  const std::vector<Box> boxes{
      {1000, 1000, 2000, 2000}, {3000, 5000, 5000, 6500}, {200, 7000, 1200, 8000}};
  auto crops = [&](bool region) {
    return [&, region] {
      const double t0 = cpu_seconds();
      Pass p;
      if (!region) {
        const Raster full = jp2_decode_full(data);  // one decode serves every crop of the page
        for (const Box& b : boxes)
          p.jpeg_bytes += static_cast<long long>(jpeg_encode(crop(full, b), 75).size());
      } else {
        for (const Box& b : boxes)
          p.jpeg_bytes +=
              static_cast<long long>(jpeg_encode(jp2_decode_region(data, b), 75).size());
      }
      p.crops = static_cast<long>(boxes.size());
      p.cpu_seconds = cpu_seconds() - t0;
      return p;
    };
  };
  print("full page decode, then 3 crops (baseline)",
        bench::measure_in_child<Pass>(runs, crops(false)));
  print("3 region decodes (Strata)", bench::measure_in_child<Pass>(runs, crops(true)));
  // Big pictures: one region call then encode (baseline) against strips streamed into the
  // JPEG encoder (Strata), and a full-page plate streamed.
  const Box big{500, 2000, 6000, 6000}, plate{0, 0, info.width, info.height};
  auto streamed = [&](const Box& box) {
    return [&, box] {
      const double t0 = cpu_seconds();
      JpegWriter writer(box.width(), box.height(), info.components >= 3 ? 3 : 1, 75);
      jp2_decode_strips(data, box, kDefaultStripRows,
                        [&](const Raster& strip) { writer.write(strip); });
      Pass p;
      p.jpeg_bytes = static_cast<long long>(writer.finish().size());
      p.crops = 1;
      p.cpu_seconds = cpu_seconds() - t0;
      return p;
    };
  };
  print("5500x4000 region, one call (baseline)", bench::measure_in_child<Pass>(runs, [&] {
          const double t0 = cpu_seconds();
          Pass p;
          p.jpeg_bytes =
              static_cast<long long>(jpeg_encode(jp2_decode_region(data, big, 1 << 30), 75).size());
          p.crops = 1;
          p.cpu_seconds = cpu_seconds() - t0;
          return p;
        }));
  print("5500x4000 region, 512-row strips (Strata)",
        bench::measure_in_child<Pass>(runs, streamed(big)));
  print("whole page as one plate, strips (Strata)",
        bench::measure_in_child<Pass>(runs, streamed(plate)));
}

void bench_book(int scale, int runs) {
  const fs::path root =
      fs::temp_directory_path() / ("strata-bench-books-" + std::to_string(getpid()));
  SyntheticOptions o;
  o.page_width = 640 * scale;
  o.page_height = 880 * scale;
  const SyntheticItem item = write_synthetic_item(root / "items", o);
  const auto zip = item.folder / (o.identifier + "_jp2.zip");
  std::printf("book: %d leaves of %d x %d (lossless JP2), page ZIP %ju bytes\n", o.leaves,
              o.page_width, o.page_height, static_cast<uintmax_t>(fs::file_size(zip)));
  const bench::Figures<Pass> f = bench::measure_in_child<Pass>(runs, [&] {
    ExtractOptions eo;
    eo.out = root / "out";
    eo.filters.size = eo.filters.aspect = false;
    ProblemLog problems;
    const double t0 = cpu_seconds();
    const long long read0 = bytes_read_by_process();
    const ItemResult r = extract_item(item.folder, eo, problems);
    Pass p;
    p.process_bytes_read = bytes_read_by_process() - read0;
    p.cpu_seconds = cpu_seconds() - t0;
    p.crops = static_cast<long>(r.counters.get("crops"));
    p.page_bytes_read = r.counters.get("page_bytes_read");
    return p;
  });
  print("strata books extract (default mode)", f);
  // The members the crops needed: each leaf with a kept picture, once.
  PageImages images(zip);
  long long needed = 0;
  for (int leaf : {5, 6, 7, 8, 10, 12}) needed += static_cast<long long>(images.read(leaf).size());
  const auto other = fs::file_size(item.folder / (o.identifier + "_abbyy.gz")) +
                     fs::file_size(item.folder / (o.identifier + "_scandata.xml"));
  std::printf(
      "page members read %lld bytes, needed %lld: ratio %.3f; all files read by the process %lld "
      "bytes "
      "(abbyy.gz + scandata %ju): ratio to members + those %.3f\n",
      f.pass.page_bytes_read, needed, double(f.pass.page_bytes_read) / double(needed),
      f.pass.process_bytes_read, static_cast<uintmax_t>(other),
      double(f.pass.process_bytes_read) / double(needed + static_cast<long long>(other)));
  fs::remove_all(root);
}

}  // namespace

int main(int argc, char** argv) {
  std::string page_path =
      "../shared/data/books/internetarchive__archive-pdf-tools/tests/files/smallhouse-vague/"
      "SmallHousesEconomicDesignConstruction_FullRes_0015.jp2";
  int scale = 3, runs = 3;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--page"))
      page_path = argv[i + 1];
    else if (!std::strcmp(argv[i], "--scale"))
      scale = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--runs"))
      runs = std::atoi(argv[i + 1]);
  }
  if (fs::exists(page_path))
    bench_page(read_whole(page_path), runs);
  else
    std::printf("no page %s: skipping the real page\n", page_path.c_str());
  bench_book(scale, runs);
}
