// strata sample --out DIR [--seed N] [--sites N] [--crawls N] [--scale tiny|demo|bench|SIZE]
//               [--mirrors N] [--cover-truth GROUPS]
#include <cstdio>
#include <memory>

#include "command.hpp"
#include "sample/cover_world.hpp"
#include "sample/sample.hpp"

namespace {

struct Options {
  std::string out;
  uint64_t seed = 1;
  int sites = 0;
  int crawls = 0;
  int threads = 0;
  int mirrors = 0;
  std::string scale = "demo";
  size_t cover_truth = 0;  // groups per family of the cover world (0: none)
};

int run(const Options& o) {
  strata::sample::Options opt;
  if (!strata::sample::apply_scale(o.scale, opt)) {
    std::fprintf(stderr, "strata sample: unknown --scale '%s' (tiny, demo, bench or a number)\n",
                 o.scale.c_str());
    return 2;
  }
  opt.seed = o.seed;
  opt.sites = o.sites;
  opt.crawls = o.crawls;
  opt.mirrors = o.mirrors;
  auto s = strata::sample::generate(opt, o.out, o.threads);
  strata::Json report = {{"WARC files", s.files.size()}, {"bytes", s.bytes},
                         {"records", s.records},         {"image URLs", s.images},
                         {"distinct images", s.assets},  {"truth documents", s.documents},
                         {"seconds", s.seconds}};
  if (o.cover_truth > 0) {
    const auto families = strata::sample::build_cover_world(o.seed, o.cover_truth);
    strata::sample::write_cover_world(families, o.out);
    size_t documents = 0;
    for (const auto& f : families) documents += f.documents.size();
    report["cover truth documents"] = documents;
    report["cover truth pages"] =
        strata::sample::write_page_versions_world(o.seed, o.cover_truth, o.out).pages;
  }
  strata::cli::print_report(report);
  return 0;
}

const bool registered = strata::cli::register_command(
    "sample", "Write a synthetic web archive (Heritrix/Browsertrix WARCs) with ground truth",
    [](CLI::App& app) -> strata::cli::Runner {
      auto o = std::make_shared<Options>();
      app.add_option("--out", o->out, "Output folder")->required();
      app.add_option("--seed", o->seed, "Seed (same seed, same bytes)");
      app.add_option("--sites", o->sites, "Number of sites (default: from the scale)");
      app.add_option("--crawls", o->crawls, "Number of crawls/collections (default: from scale)");
      app.add_option("--scale", o->scale, "tiny, demo, bench or a number of images");
      app.add_option("--threads", o->threads, "Writer threads (default: all cores)");
      app.add_option("--mirrors", o->mirrors,
                     "Articles copied as near-duplicate pages (mirror, reprint, print version, "
                     "rewrite; default 0)")
          ->check(CLI::Range(0, 100000));
      app.add_option("--cover-truth", o->cover_truth,
                     "Also write DIR/cover/: document families with known minimum covers, this "
                     "many groups each (docs/sample.md)");
      return [o] { return run(*o); };
    });

}  // namespace
