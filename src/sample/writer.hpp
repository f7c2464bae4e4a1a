#pragma once
// Writes the planned world as WARC files in the dialect of each crawl's crawler
// (sample/crawler.hpp), one gzip member per record: per crawl and shard a main file
// (warcinfo, then per page its response and request, then the images it pulls in, revisits
// for unchanged images) and a second file for "late" images.
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "core/digest.hpp"
#include "sample/world.hpp"

namespace strata::sample {

// Where a record ended up (file relative to the output folder, shared by the file's records).
struct Location {
  std::shared_ptr<const std::string> file;
  uint64_t offset = 0;
  uint64_t length = 0;
};

struct CaptureEvent {
  int image = 0;  // ImageUrl
  int crawl = 0;
  bool revisit = false;
  int refers_to_crawl = -1;
  Location where;
};

struct PageEvent {
  int page = 0;
  int crawl = 0;
  Location where;
};

struct WriteResult {
  std::vector<CaptureEvent> captures;
  std::vector<PageEvent> pages;
  std::vector<std::string> files;
  uint64_t bytes = 0;
  uint64_t records = 0;
};

// Number of (crawl, shard) jobs; each writes its own files and can run in its own thread.
int shard_count(const World& w);
WriteResult write_job(const World& w, const std::filesystem::path& dir, int crawl, int shard);

// Deterministic record id for a record of the world; `sha256` is a reusable SHA-256 hasher.
std::string record_id(Hasher& sha256, uint64_t seed, const std::string& what,
                      const std::string& url, int crawl);

}  // namespace strata::sample
