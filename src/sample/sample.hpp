#pragma once
// `strata sample`: a synthetic web archive with ground truth. generate() plans a World from
// the options, writes its WARC files (one thread per (crawl, shard) job), then computes the
// ground truth from what was written. docs/sample.md describes the output.
#include <cstdint>
#include <string>
#include <vector>

#include "sample/truth.hpp"
#include "sample/world.hpp"

namespace strata::sample {

struct Summary {
  std::vector<std::string> files;  // WARC files, relative to the output folder, sorted
  uint64_t bytes = 0;
  uint64_t records = 0;
  size_t images = 0;     // image URLs planned
  size_t assets = 0;     // distinct encoded files
  size_t documents = 0;  // truth documents
  double seconds = 0;
  double plan_seconds = 0;  // planning and encoding the world, before any WARC is written
};

Summary generate(const Options& options, const std::string& dir, int threads = 0);

}  // namespace strata::sample
