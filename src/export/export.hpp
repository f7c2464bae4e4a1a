#pragma once
// Export of a whole result set (docs/export.md), produced in pieces so that a server can
// stream it and a command can write it, with memory that does not grow with the result set:
//   csv, jsonl  one row per image with the chosen fields (the API's field names)
//   warc        a warcinfo, then per image its original record copied as archived (the
//               documents point at the response that holds the bytes: revisits are resolved)
//   zip         images/<digest>.<ext> with the bytes as captured, then index.csv
//   wacz        WACZ 1.1.1: archive/data.warc.gz, indexes/index.cdx, pages/pages.jsonl,
//               datapackage.json (sha256 of each), datapackage-digest.json
// Results come in the API's order, page by page (search::search). Failure contract: a bad
// request throws search::RequestError from the constructor; an image whose record cannot be
// read (archive missing, moved, changed, damaged) is skipped and reported in the summary
// (and, for warc/zip/wacz, in the output itself); Xapian errors propagate.
#include <xapian.h>

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/json.hpp"
#include "core/problems.hpp"
#include "search/index_parts.hpp"
#include "search/request.hpp"
#include "search/searcher.hpp"

namespace strata::exporter {

enum class Format { csv, jsonl, warc, zip, wacz };
std::optional<Format> parse_format(std::string_view name);
std::string_view format_name(Format format);
std::string_view content_type(Format format);
std::string_view file_extension(Format format);  // ".csv", ".jsonl", ".warc.gz", ".zip", ".wacz"

// One output row: the requested fields of a result, by their API names, in order.
using RowFn = std::function<Json(const search::Hit&)>;

struct ExportOptions {
  Format format = Format::csv;
  std::vector<std::string> fields;                   // columns of csv / jsonl / the zip's index.csv
  uint64_t max_images = 0;                           // stop after this many results (0: all)
  std::vector<std::filesystem::path> archive_roots;  // where moved archives are looked for
  std::string description;         // what was asked (the query), for warcinfo and datapackage.json
  size_t piece_bytes = 256 << 10;  // next() returns once a piece holds this much
};

struct ExportSummary {
  uint64_t results = 0;  // results read from the index
  uint64_t written = 0;  // rows or images written
  uint64_t skipped = 0;  // images left out (problems says why)
  uint64_t bytes = 0;    // output bytes
};

class Exporter {
 public:
  // Runs the first search (throws search::RequestError for a bad q) over `db`, one index or
  // several combined (`parts`, search/index_parts.hpp: shards). Both must outlive the
  // exporter, which is used by one thread at a time.
  Exporter(Xapian::Database& db, const search::IndexParts& parts, search::SearchRequest request,
           ExportOptions options, RowFn row);
  ~Exporter();
  Exporter(const Exporter&) = delete;
  Exporter& operator=(const Exporter&) = delete;

  // Results the search counted (search::SearchResult::total: exact up to 10,000).
  uint64_t total() const;
  // Appends the next piece of the output to `out`; false once the output is complete.
  bool next(std::string& out);
  const ExportSummary& summary() const;
  const ProblemLog& problems() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

Json to_json(const ExportSummary& summary);

}  // namespace strata::exporter
