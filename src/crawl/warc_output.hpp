#pragma once
// Writes a crawl's captures as Heritrix 3 does: files named PREFIX-TIMESTAMP-SERIAL.warc.gz,
// each starting with a warcinfo record and rotated once past `max_file_bytes`; per capture a
// response (or a revisit under the identical-payload-digest profile when the payload was
// written before for the same URL, in this crawl or an earlier run of it), a request, then a
// metadata record
// with via, hop count, fetch time and outlinks; every record its own gzip member. Throws
// std::runtime_error when a file cannot be created or written (the crawl stops).
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "archive/warc_writer.hpp"
#include "crawl/fetcher.hpp"
#include "crawl/links.hpp"
#include "crawl/url_store.hpp"

namespace strata::crawl {

struct WarcOutputOptions {
  std::filesystem::path dir;
  std::string prefix = "STRATA";
  uint64_t max_file_bytes = 1000ull * 1000 * 1000;  // Heritrix's default
  std::vector<archive::Header> warcinfo;            // fields after software/format/conformsTo
};

enum class CaptureKind {
  response,
  duplicate,  // a response whose payload was written before under another URL
  revisit,    // the payload was written before under this URL
};

class WarcOutput {
 public:
  WarcOutput(WarcOutputOptions options, UrlStore& store);
  CaptureKind write(const FetchResult& fetch, const QueuedUrl& url,
                    const std::vector<Outlink>& outlinks);
  const std::vector<std::filesystem::path>& files() const { return files_; }

 private:
  archive::WarcWriter& writer();

  WarcOutputOptions options_;
  UrlStore& store_;
  std::unique_ptr<archive::WarcWriter> writer_;
  std::vector<std::filesystem::path> files_;
  unsigned serial_ = 0;
};

}  // namespace strata::crawl
