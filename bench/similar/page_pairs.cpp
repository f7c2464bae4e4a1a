// page_pairs: near-duplicate pages of real archives, from the page sketches extraction writes
// (docs/near-duplicates.md, "Pages"). Extracts every archive given (one thread, records kept
// in memory), takes one sketch per page capture (pageUrl, pageTimestamp) from its references,
// and reports: captures sketched; for URLs captured more than once, how many of their later
// captures are near-duplicates of the first (the same page over many crawls); the groups of
// similar::page_groups that span several URLs (mirrors, http/https, www and not), listed for
// checking by eye; and the histogram of estimated Jaccard over LSH candidate pairs.
//
//   page_pairs FILE_OR_DIR...
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "core/counters.hpp"
#include "core/json.hpp"
#include "core/problems.hpp"
#include "extract/extractor.hpp"
#include "similar/page_sketch.hpp"

namespace fs = std::filesystem;
using strata::similar::PageSketch;

namespace {

struct Capture {
  std::string url, timestamp, file;
  PageSketch sketch;
};

void add_archive(const fs::path& path, std::vector<Capture>& captures, size_t& unsketched) {
  std::ostringstream out;
  strata::Counters counters;
  strata::extract::ExtractOptions options;
  options.collection = "real";
  strata::extract::extract_archive(path, path.string(), options, out, counters, {});
  std::set<std::pair<std::string, std::string>> seen;
  std::istringstream in(out.str());
  for (std::string line; std::getline(in, line);) {
    strata::Json j = strata::Json::parse(line, nullptr, false);
    if (j.is_discarded() || j.value("type", "") != "ref") continue;
    std::string url = j.value("pageUrl", ""), ts = j.value("pageTimestamp", "");
    if (!seen.emplace(url, ts).second) continue;
    auto sketch = strata::similar::decode_page_sketch(j.value("pageSketch", ""));
    if (!sketch) {
      ++unsketched;
      continue;
    }
    captures.push_back({url, ts, path.filename().string(), *sketch});
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: page_pairs FILE_OR_DIR...\n");
    return 2;
  }
  std::vector<fs::path> files;
  for (int i = 1; i < argc; ++i) {
    if (fs::is_regular_file(argv[i])) files.emplace_back(argv[i]);
    std::error_code ec;
    if (fs::is_directory(argv[i]))
      for (auto it = fs::recursive_directory_iterator(argv[i], ec);
           it != fs::recursive_directory_iterator(); it.increment(ec))
        if (it->is_regular_file()) files.push_back(it->path());
  }
  std::sort(files.begin(), files.end());
  std::vector<Capture> captures;
  size_t unsketched = 0;
  for (const auto& f : files) add_archive(f, captures, unsketched);
  std::sort(captures.begin(), captures.end(), [](const Capture& a, const Capture& b) {
    return std::tie(a.url, a.timestamp, a.file) < std::tie(b.url, b.timestamp, b.file);
  });
  std::printf("%zu archives: %zu page captures with references sketched, %zu without a sketch\n",
              files.size(), captures.size(), unsketched);

  // The same URL over several captures.
  std::map<std::string, std::vector<size_t>> by_url;
  for (size_t i = 0; i < captures.size(); ++i) by_url[captures[i].url].push_back(i);
  size_t repeated_urls = 0, later = 0, later_near = 0;
  for (const auto& [url, list] : by_url) {
    if (list.size() < 2) continue;
    ++repeated_urls;
    for (size_t k = 1; k < list.size(); ++k) {
      ++later;
      const auto& first = captures[list.front()].sketch;
      const auto& other = captures[list[k]].sketch;
      bool near = strata::similar::near_duplicate_pages(first, other);
      later_near += near;
      if (!near)
        std::printf("  changed: %s %s -> %s  J=%.2f\n", url.c_str(),
                    captures[list.front()].timestamp.c_str(), captures[list[k]].timestamp.c_str(),
                    strata::similar::estimated_jaccard(first, other));
    }
  }
  std::printf(
      "URLs captured more than once: %zu; later captures %zu, near-duplicates of the "
      "first %zu\n",
      repeated_urls, later, later_near);

  // Groups across URLs (pages with 10 shingles or more, as the merge).
  std::vector<const PageSketch*> pages;
  for (const auto& c : captures) pages.push_back(c.sketch.shingles >= 10 ? &c.sketch : nullptr);
  std::vector<uint32_t> group = strata::similar::page_groups(pages);
  std::map<uint32_t, std::set<std::string>> urls_of;
  for (size_t i = 0; i < captures.size(); ++i) urls_of[group[i]].insert(captures[i].url);
  size_t multi = 0;
  for (const auto& [g, urls] : urls_of) {
    if (urls.size() < 2) continue;
    ++multi;
    std::printf("  group of %zu URLs (%u shingles):", urls.size(), captures[g].sketch.shingles);
    for (const auto& u : urls) std::printf(" %s", u.c_str());
    std::printf("\n");
  }
  std::printf("near-duplicate groups spanning several URLs: %zu\n", multi);

  // Estimated Jaccard of LSH candidate pairs of different URLs.
  std::unordered_map<uint64_t, std::vector<uint32_t>> buckets;
  for (uint32_t i = 0; i < captures.size(); ++i)
    for (uint64_t key : strata::similar::band_keys(captures[i].sketch)) buckets[key].push_back(i);
  std::set<std::pair<uint32_t, uint32_t>> candidates;
  for (const auto& [key, members] : buckets)
    for (size_t x = 0; x < members.size() && x < 200; ++x)
      for (size_t y = x + 1; y < members.size() && y < 200; ++y)
        if (captures[members[x]].url != captures[members[y]].url)
          candidates.emplace(members[x], members[y]);
  int histogram[11] = {};
  for (const auto& [a, b] : candidates)
    ++histogram[static_cast<int>(
        strata::similar::estimated_jaccard(captures[a].sketch, captures[b].sketch) * 10)];
  std::printf("LSH candidate pairs of different URLs: %zu; estimated J by tenths:",
              candidates.size());
  for (int h = 0; h <= 10; ++h) std::printf(" %d", histogram[h]);
  std::printf("\n");
  return 0;
}
