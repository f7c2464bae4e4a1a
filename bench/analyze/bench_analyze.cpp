// bench_analyze [--shared DIR] [--models DIR] [--model VARIANT] [--seconds S] [--threads T]
// The parts of the per-image analysis, in process, on every image payload (HTTP Content-Type
// image/*) of two real archives in shared/data; each measured for at least S seconds
// (default 5):
//   thumbnails/s on one thread (one decode + fit 200x200 + sharpen + WebP, and the 400x400
//   one for high-density screens), and on T threads; without the 400x400 one, alternated;
//   the bytes each stores per image;
//   pHash/s and PDQ/s on one thread (of the decoded frame: Lanczos 32x32 + DCT; Jarosz
//   filter + 64x64 -> 16x16 DCT);
//   NSFW classifications/s (default model; XNNPACK, or OpenCV DNN for InceptionV3) at batch 1
//   and 8 on one thread, at batch 1 with the visual embedding (analyze/embedding.hpp), and
//   T classifiers side by side;
//   full analysis (thumbnail + pHash + NSFW, thumbnails written) images/s on T threads.
// What a user runs end to end (`strata analyze` on the demo's images): bench_analyze_cli.sh.
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <functional>
#include <iostream>
#include <string>
#include <thread>
#include <vector>

#include "analyze/analyzer.hpp"
#include "analyze/embedding.hpp"
#include "analyze/nsfw.hpp"
#include "analyze/pdq.hpp"
#include "analyze/phash.hpp"
#include "analyze/thumbnail.hpp"
#include "archive/reader.hpp"

using namespace strata;
using namespace strata::analyze;
namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

struct Config {
  fs::path shared;
  fs::path models;
  std::string model = kDefaultNsfwModel;
  double seconds = 5;
  unsigned threads = std::max(1u, std::thread::hardware_concurrency());
};

std::vector<std::string> load_images(const fs::path& shared) {
  std::vector<std::string> out;
  for (const char* rel :
       {"data/archives/webrecorder__replayweb.page/mkdocs/site/docs/examples/"
        "netpreserve-twitter.warc",
        "data/archives/archivesunleashed__aut/src/test/resources/warc/example.warc.gz"}) {
    auto reader = archive::ArchiveReader::open(shared / rel, {}, [](const auto&...) {});
    while (reader->next()) {
      const auto& r = reader->record();
      if (r.type != archive::RecordType::response || !r.http.mime.starts_with("image/")) continue;
      std::string payload;
      if (reader->read_payload(payload) == archive::PayloadStatus::ok && !payload.empty())
        out.push_back(std::move(payload));
    }
  }
  return out;
}

// CPU seconds the process has used, OpenCV's threads included (load-independent, unlike
// wall time).
double process_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return double(ts.tv_sec) + double(ts.tv_nsec) * 1e-9;
}

struct Rate {
  double per_second = 0;      // wall clock
  double per_cpu_second = 0;  // per second of CPU the process got
};

// Runs `work(i)` over items round-robin on `threads` threads for `seconds`.
Rate rate(unsigned threads, double seconds, size_t items,
          const std::function<void(size_t, unsigned)>& work) {
  std::atomic<size_t> next{0};
  std::atomic<bool> stop{false};
  const double cpu_start = process_cpu_seconds();
  const auto start = Clock::now();
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      while (!stop) {
        const size_t i = next++;
        work(i % items, t);
        if (std::chrono::duration<double>(Clock::now() - start).count() > seconds) stop = true;
      }
    });
  for (auto& th : pool) th.join();
  const double cpu_total = process_cpu_seconds() - cpu_start;
  const double wall = std::chrono::duration<double>(Clock::now() - start).count();
  return {double(next) / wall, cpu_total > 0 ? double(next) / cpu_total : 0};
}

void report(const std::string& name, Rate r) {
  std::cout << "  " << name << ": " << r.per_second << " images/s, " << r.per_cpu_second
            << " per CPU-second\n";
}

}  // namespace

int main(int argc, char** argv) {
  Config c;
  const char* env = std::getenv("STRATA_SHARED");
  c.shared = env ? fs::path(env) : fs::path("../shared");
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string a = argv[i], v = argv[i + 1];
    if (a == "--shared")
      c.shared = v;
    else if (a == "--models")
      c.models = v;
    else if (a == "--model")
      c.model = v;
    else if (a == "--seconds")
      c.seconds = std::stod(v);
    else if (a == "--threads")
      c.threads = unsigned(std::stoul(v));
  }
  const auto images = load_images(c.shared);
  if (images.empty()) {
    std::cerr << "no images found under " << c.shared << " (pass --shared)\n";
    return 4;
  }
  ensure_vips();
  std::vector<Thumbnail> thumbs(images.size());
  size_t failed = 0;
  for (size_t i = 0; i < images.size(); ++i)
    failed += make_thumbnail(images[i], {}, thumbs[i]) != DecodeStatus::ok;
  std::vector<const RgbImage*> frames, decoded;
  for (const auto& t : thumbs)
    if (!t.sample_frames.empty()) {
      frames.push_back(&t.sample_frames[0]);
      decoded.push_back(&t.decoded);
    }
  std::cout << "bench_analyze: " << images.size() << " real images (" << failed
            << " fail to decode), " << c.threads << " threads, "
            << std::thread::hardware_concurrency() << " cores\n";

  auto thumb = [&](size_t i, unsigned) {
    Thumbnail t;
    make_thumbnail(images[i], {}, t);
  };
  // The high-density thumbnail's cost (analyze/thumbnail.hpp, retina_side): without it,
  // alternated with it; and the bytes each stores.
  ThumbnailOptions single;
  single.retina_side = 0;
  auto thumb_single = [&](size_t i, unsigned) {
    Thumbnail t;
    make_thumbnail(images[i], single, t);
  };
  for (int round = 0; round < 2; ++round) {
    report("thumbnails without the 2x one, 1 thread",
           rate(1, c.seconds, images.size(), thumb_single));
    report("thumbnails with the 2x one (default), 1 thread",
           rate(1, c.seconds, images.size(), thumb));
  }
  size_t bytes = 0, retina_bytes = 0, with_retina = 0;
  for (const auto& t : thumbs) {
    bytes += t.webp.size();
    retina_bytes += t.webp_retina.size();
    with_retina += !t.webp_retina.empty();
  }
  std::cout << "  thumbnail bytes: " << bytes / std::max<size_t>(1, thumbs.size())
            << " per image; 2x thumbnails: " << with_retina << " of " << thumbs.size()
            << " images, " << retina_bytes / std::max<size_t>(1, thumbs.size())
            << " bytes per image (" << retina_bytes / std::max<size_t>(1, with_retina)
            << " per 2x thumbnail)\n";
  report("thumbnails, 1 thread", rate(1, c.seconds, images.size(), thumb));
  report("thumbnails, " + std::to_string(c.threads) + " threads",
         rate(c.threads, c.seconds, images.size(), thumb));
  report("pHash of the decoded frame, 1 thread",
         rate(1, c.seconds, decoded.size(), [&](size_t i, unsigned) {
           phash_rgb(decoded[i]->rgb.data(), decoded[i]->width, decoded[i]->height);
         }));
  report("PDQ of the decoded frame, 1 thread",
         rate(1, c.seconds, decoded.size(), [&](size_t i, unsigned) {
           pdq_rgb(decoded[i]->rgb.data(), decoded[i]->width, decoded[i]->height);
         }));

  const auto root = c.models.empty() ? find_nsfw_models() : std::optional<fs::path>(c.models);
  if (!root || !fs::exists(*root / c.model / "model.json")) {
    std::cout << "  NSFW: model " << c.model << " not installed (scripts/setup-npm); skipped\n";
    return 0;
  }
  {
    NsfwClassifier classifier(*root / c.model);
    for (size_t batch : {size_t(1), size_t(8)}) {
      const Rate batches = rate(1, c.seconds, frames.size(), [&](size_t i, unsigned) {
        std::vector<const RgbImage*> b;
        for (size_t k = 0; k < batch; ++k) b.push_back(frames[(i * batch + k) % frames.size()]);
        classifier.classify_batch(b);
      });
      report("NSFW " + c.model + ", batch " + std::to_string(batch) + ", 1 thread",
             {batches.per_second * double(batch), batches.per_cpu_second * double(batch)});
    }
    // The visual embedding's cost: the pooled output of the same pass, and its code.
    std::vector<std::vector<float>> pooled;
    report("NSFW " + c.model + ", batch 1 + embedding, 1 thread",
           rate(1, c.seconds, frames.size(), [&](size_t i, unsigned) {
             classifier.classify_batch({frames[i]}, &pooled);
             embedding_code(pooled.at(0));
           }));
    report(
        "embedding code of a pooled vector, 1 thread",
        rate(1, c.seconds, frames.size(), [&](size_t, unsigned) { embedding_code(pooled.at(0)); }));
  }
  std::vector<std::unique_ptr<NsfwClassifier>> side_by_side;
  for (unsigned t = 0; t < c.threads; ++t)
    side_by_side.push_back(std::make_unique<NsfwClassifier>(*root / c.model));
  report(
      "NSFW " + c.model + ", batch 1, " + std::to_string(c.threads) + " classifiers side by side",
      rate(c.threads, c.seconds, frames.size(),
           [&](size_t i, unsigned t) { side_by_side[t]->classify(*frames[i]); }));
  // Whole analysis, one Analyzer (own classifier) per thread, as run_analysis.
  const fs::path store_dir = fs::temp_directory_path() / "strata-bench-analyze";
  const ThumbnailStore store(store_dir);
  std::vector<std::unique_ptr<NsfwClassifier>> classifiers;
  std::vector<std::unique_ptr<Analyzer>> analyzers;
  for (unsigned t = 0; t < c.threads; ++t) {
    classifiers.push_back(std::make_unique<NsfwClassifier>(*root / c.model));
    analyzers.push_back(
        std::make_unique<Analyzer>(AnalyzerOptions{}, store, classifiers.back().get()));
  }
  const std::string fake_digest(64, 'a');
  report("full analysis (thumbnail + pHash + NSFW), " + std::to_string(c.threads) + " threads",
         rate(c.threads, c.seconds, images.size(),
              [&](size_t i, unsigned t) { analyzers[t]->analyze(fake_digest, images[i]); }));
  fs::remove_all(store_dir);
  return 0;
}
