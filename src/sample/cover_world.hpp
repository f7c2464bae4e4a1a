#pragma once
// Generated collections with known minimum covers (docs/sample.md, "Cover truth";
// docs/redundancy.md): families of image documents built so that under one coverage
// expression each family's minimum cover size is proven by construction: a packing of
// documents that only one kept document each can cover (a lower bound) meets a cover of the
// same size. `strata sample --cover-truth N` writes them beside the archive, in their own
// files, so the archive's bytes and its other truth do not change.
//
// Failure contract: build_cover_world() never throws (beyond std::bad_alloc);
// write_cover_world() throws std::runtime_error when a file cannot be written.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "merge/document.hpp"

namespace strata::sample {

struct CoverFamily {
  std::string name;                             // also its folder: DIR/cover/<name>/
  std::string expression;                       // the coverage expression the optimum is for
  std::string proof;                            // why the optimum is what it is
  std::vector<merge::ImageDocument> documents;  // sorted by id
  std::vector<std::pair<std::string, uint64_t>> phashes;  // digest -> pHash (analysis)
  size_t optimum = 0;                                     // the minimum cover size
  size_t largest_group = 0;  // the most documents in one group: no component is larger
};

// `groups` sets the size: groups (URLs, looks, hosts, pages, cycles) per family, at least 1.
std::vector<CoverFamily> build_cover_world(uint64_t seed, size_t groups);

// DIR/cover/<family>/{documents.jsonl,analysis.jsonl} and DIR/cover/truth.json:
// [{"family","expression","documents","optimum","largestGroup","proof"}].
void write_cover_world(const std::vector<CoverFamily>& families, const std::string& dir);

// The paper's use case over archived pages (`strata cover --items pages`, docs/redundancy.md
// "Pages"): `groups` URLs with 2-6 captures a year apart in one WARC, each capture appending
// 1-3 words never seen before to the page's main text and, with probability 0.3, first
// cutting one for good. Under `pageversions` a capture covers exactly the older captures of
// its own run (those since the last cut), so the minimum cover keeps the newest of each run.
struct PageVersionsTruth {
  std::string expression = "pageversions";
  std::string proof;
  size_t pages = 0, optimum = 0;
  std::vector<std::string> keepers;  // the ids ("TIMESTAMP/URL") a minimum cover keeps, sorted
};
// Writes `warc`; throws std::runtime_error when it cannot be written.
PageVersionsTruth write_page_versions(uint64_t seed, size_t groups, const std::string& warc);
// DIR/cover/archived-pages/{versions.warc.gz,truth.json} ({expression, items: "pages",
// pages, optimum, keepers, proof}).
PageVersionsTruth write_page_versions_world(uint64_t seed, size_t groups, const std::string& dir);

}  // namespace strata::sample
