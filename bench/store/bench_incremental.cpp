// bench_incremental [--docs N] [--batch-percent P] [--runs R] [--work DIR] [--jobs J]
//                   [--base-index DIR] [--analysis 1]
// The cost of `strata index`'s incremental add (src/store/incremental.hpp): builds an index of
// about N documents from synthetic extraction records (one capture and two references per
// image, a revisit for every tenth), then adds a batch of P % (default 1) as a new crawl would
// bring it: new images with their pages, and new pages referencing images already indexed (a
// fifth of the batch's references). Times, as medians of R runs (each on a fresh copy of the
// index, the two kinds taking turns, each run a child process), the add to the big index
// against indexing the same batch into an empty index, wall and CPU (user + system) time, and
// prints the records and documents each processed. Analysis is off (as --no-analysis) unless
// --analysis 1: then every add runs an analysis step that reads the index's analysis.jsonl
// cache for the documents' digests (as `strata index` does) and appends a synthetic record
// (pHash, PDQ, NSFW scores, embedding; a tenth of the images near-copies of others) for each
// new one, so the add joins analysis records and regroups near-duplicates (image decoding
// itself, the same work alone and added, is left out).
// --base-index DIR keeps the base index in DIR (built there when missing, reused when present:
// built by the same --docs), so repeated measurements skip the long base build.
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "../common/measure.hpp"
#include "../common/synthetic.hpp"
#include "../similar/phashes.hpp"
#include "analyze/record.hpp"
#include "analyze/run.hpp"
#include "extract/records.hpp"
#include "index/moderation.hpp"
#include "store/incremental.hpp"

namespace {

namespace fs = std::filesystem;
using namespace strata;
using bench::hex_digest;

struct Config {
  uint64_t docs = 100'000;
  double batch_percent = 1.0;
  int runs = 3;
  unsigned jobs = 1;
  bool analysis = false;
  fs::path work =
      fs::temp_directory_path() / ("strata-bench-incremental-" + std::to_string(getpid()));
  fs::path base_index;  // empty: work/base-index, removed afterwards
};

std::string surt_of(uint64_t image) {
  return "(pt,site" + std::to_string(image % 5000) + ",)/img/photo" + std::to_string(image) +
         ".jpg";
}

std::string url_of(uint64_t image) {
  return "http://site" + std::to_string(image % 5000) + ".pt/img/photo" + std::to_string(image) +
         ".jpg";
}

void write_capture(std::ofstream& out, uint64_t image, const std::string& crawl, uint64_t offset) {
  extract::ImageCapture c;
  c.imgSurt = surt_of(image), c.imgUrl = url_of(image), c.timestamp = crawl + "01120000";
  c.collection = "crawl-" + crawl, c.file = "crawl-" + crawl + ".warc.gz", c.offset = offset;
  c.length = 900, c.recordType = "response", c.status = 200, c.mimeReported = "image/jpeg";
  c.mimeDetected = "image/jpeg", c.width = 640, c.height = 480, c.digest = hex_digest(image);
  c.size = 20000, c.warcDigest = "sha1:" + c.digest.substr(0, 32);
  out << extract::to_jsonl(c);
}

void write_revisit(std::ofstream& out, uint64_t image, const std::string& crawl, uint64_t offset) {
  extract::ImageRevisit v;
  v.imgSurt = surt_of(image), v.imgUrl = url_of(image), v.timestamp = crawl + "02120000";
  v.collection = "crawl-" + crawl, v.file = "crawl-" + crawl + ".warc.gz", v.offset = offset;
  v.warcDigest = "sha1:" + hex_digest(image).substr(0, 32);
  out << extract::to_jsonl(v);
}

void write_reference(std::ofstream& out, uint64_t image, uint64_t page, const std::string& crawl,
                     uint64_t offset) {
  extract::PageReference r;
  r.imgSurt = surt_of(image), r.imgUrl = url_of(image);
  r.imgUrlTokens = "site photo " + std::to_string(image);
  r.imgAlt = "photo of item " + std::to_string(image % 9973);
  r.imgCaption = "caption near image " + std::to_string(image % 777), r.tag = "img";
  r.pageUrl = "http://site" + std::to_string(image % 5000) + ".pt/page" + std::to_string(page);
  r.pageTimestamp = crawl + "01120000", r.pageTitle = "Page " + std::to_string(page);
  r.pageUrlTokens = "site page", r.pageHost = "site.pt", r.imagesInPage = 12;
  r.collection = "crawl-" + crawl, r.file = "crawl-" + crawl + ".warc.gz", r.offset = offset;
  out << extract::to_jsonl(r);
}

// Images [first, last) captured in `crawl`, each with two referencing pages and a revisit
// for every tenth; plus `old_refs` new pages referencing images below `first`.
uint64_t write_crawl(const fs::path& dir, const std::string& crawl, uint64_t first, uint64_t last,
                     uint64_t old_refs) {
  fs::create_directories(dir);
  std::ofstream out(dir / "part-00000.jsonl");
  uint64_t offset = 0, records = 0;
  for (uint64_t image = first; image < last; ++image) {
    write_capture(out, image, crawl, offset++);
    write_reference(out, image, image * 2, crawl, offset++);
    write_reference(out, image, image * 2 + 1, crawl, offset++);
    records += 3;
    if (image % 10 == 0) write_revisit(out, image, crawl, offset++), ++records;
  }
  for (uint64_t n = 0; n < old_refs && first > 0; ++n, ++records)
    write_reference(out, (n * 7919) % first, last * 2 + n, crawl, offset++);
  return records;
}

// The synthetic analysis record of image `n` (its digest is hex_digest(n)).
analyze::AnalysisRecord analysis_of(uint64_t n) {
  std::mt19937_64 rng(n * 7919 + 1);
  analyze::AnalysisRecord r;
  r.digest = hex_digest(n), r.status = analyze::DecodeStatus::ok, r.loader = "VipsForeignLoadJpeg";
  r.width = 640, r.height = 480, r.frames = 1;
  r.thumbnail = r.digest.substr(0, 2) + "/" + r.digest + ".webp", r.thumb_width = 256;
  r.thumb_height = 192;
  // A tenth are near-copies of an earlier image: groups to keep.
  r.phash = n % 10 == 9
                ? bench::near_copy(analysis_of(n / 2).phash.value(), 1 + int(rng() % 6), rng)
                : bench::balanced_hash(rng);
  r.pdq = analyze::PdqHash{rng(), rng(), rng(), rng()}, r.pdq_quality = 90;
  r.nsfw = analyze::NsfwScores{{0.01f, 0.01f, 0.9f, 0.03f, 0.05f}}, r.detail = 0.4f;
  r.model = "mobilenet_v2";
  similar::EmbeddingCode code{};
  for (auto& c : code) c = static_cast<int8_t>(rng());
  r.embedding = code;
  return r;
}

// The image number of a synthetic digest (hex_digest's inverse).
uint64_t image_of(const std::string& digest) {
  return std::stoull(digest.substr(digest.size() - 16), nullptr, 16);
}

// The analysis step of `strata index` over synthetic images: the cache read for the
// documents' digests, a record appended for each new one.
bool analyse(const fs::path& index, const fs::path& documents) {
  std::set<std::string> wanted;
  std::ifstream in(documents);
  for (std::string line; std::getline(in, line);) {
    const Json doc = Json::parse(line, nullptr, false);
    if (doc.is_object() && doc.value("imgDigest", "").size() == 64)
      wanted.insert(doc["imgDigest"].get<std::string>());
  }
  const fs::path file = index::analysis_file(index);
  const analyze::AnalysedDigests done = analyze::analysed_digests(file, &wanted);
  std::ofstream out(file, std::ios::app);
  for (const auto& digest : wanted)
    if (!done.done.count(digest))
      out << analyze::to_json(analysis_of(image_of(digest))).dump() << '\n';
  return static_cast<bool>(out.flush());
}

store::IncrementalOptions options_for(const fs::path& index, const Config& cfg) {
  store::IncrementalOptions options;
  options.index_dir = index;
  options.work_dir = index.string() + ".work";
  options.jobs = cfg.jobs;
  if (cfg.analysis)
    options.analyse = [index](const fs::path& documents) { return analyse(index, documents); };
  return options;
}

struct Pass {
  uint64_t records_merged = 0, digests = 0, written = 0, documents = 0, groups = 0;
  double cpu_seconds = 0;  // of the process (all threads): the VM's neighbours do not count
};

double process_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

Pass add(const fs::path& index, const fs::path& batch, const Config& cfg) {
  const double cpu0 = process_cpu_seconds();
  const auto report = store::add_batch(options_for(index, cfg), "batch", batch);
  fs::remove_all(index.string() + ".work");
  return {report.applied.records_merged,
          report.applied.affected.digests,
          report.applied.written,
          report.applied.documents,
          report.applied.near_duplicate_groups,
          process_cpu_seconds() - cpu0};
}

// The runs of one kind: medians of wall and CPU time (each its own median: under load the
// two need not come from the same run), the counts of a run, the largest peak RSS.
struct Runs {
  std::vector<double> seconds, cpu;
  Pass pass;
  long max_rss_kib = 0;
  void add(const strata::bench::Figures<Pass>& f) {
    seconds.push_back(f.seconds), cpu.push_back(f.pass.cpu_seconds);
    pass = f.pass, max_rss_kib = std::max(max_rss_kib, f.max_rss_kib);
  }
  static double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
  }
  double wall() const { return median(seconds); }
  double cpu_time() const { return median(cpu); }
};

void print(const char* label, const Runs& r) {
  std::printf(
      "%-28s %8.3f s (CPU %.3f s)  records merged %9llu  digests affected %8llu  documents written "
      "%8llu  "
      "index documents %9llu  groups %7llu  peak RSS %ld MB\n",
      label, r.wall(), r.cpu_time(), static_cast<unsigned long long>(r.pass.records_merged),
      static_cast<unsigned long long>(r.pass.digests),
      static_cast<unsigned long long>(r.pass.written),
      static_cast<unsigned long long>(r.pass.documents),
      static_cast<unsigned long long>(r.pass.groups), r.max_rss_kib / 1024);
  std::printf("  CPU of each run:");
  for (const double c : r.cpu) std::printf(" %.3f", c);
  std::printf(" s\n");
}

}  // namespace

int main(int argc, char** argv) {
  Config cfg;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "--docs")
      cfg.docs = std::stoull(argv[i + 1]);
    else if (flag == "--batch-percent")
      cfg.batch_percent = std::stod(argv[i + 1]);
    else if (flag == "--runs")
      cfg.runs = std::stoi(argv[i + 1]);
    else if (flag == "--jobs")
      cfg.jobs = static_cast<unsigned>(std::stoul(argv[i + 1]));
    else if (flag == "--work")
      cfg.work = argv[i + 1];
    else if (flag == "--base-index")
      cfg.base_index = argv[i + 1];
    else if (flag == "--analysis")
      cfg.analysis = std::stoi(argv[i + 1]) != 0;
    else
      return std::fprintf(stderr, "unknown option %s\n", argv[i]), 2;
  }
  const auto batch_images =
      static_cast<uint64_t>(static_cast<double>(cfg.docs) * cfg.batch_percent / 100);
  fs::remove_all(cfg.work);
  const uint64_t base_records = write_crawl(cfg.work / "base", "2020", 0, cfg.docs, 0);
  const uint64_t batch_records =
      write_crawl(cfg.work / "batch", "2021", cfg.docs, cfg.docs + batch_images, batch_images / 2);
  std::printf("base: %llu images, %llu records; batch: %llu new images, %llu records\n",
              static_cast<unsigned long long>(cfg.docs),
              static_cast<unsigned long long>(base_records),
              static_cast<unsigned long long>(batch_images),
              static_cast<unsigned long long>(batch_records));
  if (cfg.base_index.empty()) cfg.base_index = cfg.work / "base-index";
  if (fs::exists(cfg.base_index)) {
    std::printf("reusing the base index %s\n", cfg.base_index.c_str());
  } else {
    const auto t0 = std::chrono::steady_clock::now();
    const Pass base = add(cfg.base_index, cfg.work / "base", cfg);
    std::printf("built the base index: %llu documents in %.1f s\n",
                static_cast<unsigned long long>(base.documents),
                std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  // Each add goes to its own copy of the base index, made before the clocks start; each run
  // is a child process of its own (its peak RSS its own), the batch alone and the add taking
  // turns so that a change in the machine's load hits both alike.
  for (int run = 0; run < cfg.runs; ++run)
    fs::copy(cfg.base_index, cfg.work / ("grown-" + std::to_string(run)),
             fs::copy_options::recursive);
  sync();  // else the first fsync of each copy's files would write the copy out, on the clock
  Runs alone, grown;
  for (int run = 0; run < cfg.runs; ++run) {
    const std::string n = std::to_string(run);
    alone.add(strata::bench::measure_in_child<Pass>(
        1, [&] { return add(cfg.work / ("alone-" + n), cfg.work / "batch", cfg); }));
    grown.add(strata::bench::measure_in_child<Pass>(
        1, [&] { return add(cfg.work / ("grown-" + n), cfg.work / "batch", cfg); }));
  }
  print("batch alone, empty index", alone);
  print("batch added to base index", grown);
  std::printf("ratio %.2f (CPU %.2f)\n", grown.wall() / alone.wall(),
              grown.cpu_time() / alone.cpu_time());
  fs::remove_all(cfg.work);
}
