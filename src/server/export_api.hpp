#pragma once
// GET /imagesearch/export (docs/api.md, "Export"): the whole result set of an /imagesearch
// query, streamed as csv, jsonl, warc, zip or wacz (export/export.hpp). The query parameters
// and their validation are /imagesearch's, plus `format` and `maxItems` (at most the
// operator's cap, ApiConfig::export_max_images); `offset`, `redundancy` and `expand` do not
// apply (400). A result set over the cap without maxItems is refused (400 naming the cap)
// before any byte is sent. Errors are /imagesearch's JSON; a failure once streaming has begun
// ends the transfer without its last chunk.
#include <xapian.h>

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "export/export.hpp"
#include "search/index_parts.hpp"
#include "server/api.hpp"
#include "server/export_progress.hpp"
#include "server/http_listener.hpp"

namespace strata::server {

struct ExportRequest {
  search::SearchRequest search;
  exporter::ExportOptions options;
  std::string progress;  // the client's progress token (export_progress.hpp), or ""
};

// Throws search::RequestError naming the parameter.
ExportRequest parse_export_params(const Params& params, const ApiConfig& config);

// What an export reads for as long as it streams (its pieces run on whichever worker is free):
// a database of its own, one index or shards combined (search/index_parts.hpp).
struct ExportSource {
  Xapian::Database db;
  search::IndexParts parts;
};
// An index folder opened for an export: one index, or a sharded index's shards combined
// (index/shard_layout.hpp). Throws Xapian::Error when it cannot be read.
std::shared_ptr<ExportSource> export_source(const std::filesystem::path& index_dir);

// The reply: an error, or a streamed body reading `source`. With `progress`, an export asked
// for with a progress token counts its results there.
HttpResponse export_reply(std::shared_ptr<ExportSource> source, const Params& params,
                          const RequestContext& ctx, const ApiConfig& config,
                          const std::vector<std::filesystem::path>& archive_roots,
                          ExportProgress* progress = nullptr);

// The rows of csv/jsonl and of the zip's index.csv: /imagesearch's response items.
exporter::RowFn export_rows(std::vector<std::string> fields, std::string wayback);

// `strata export`'s and the endpoint's refusal of a result set larger than `cap`.
std::string over_cap_message(uint64_t total, uint64_t cap);

}  // namespace strata::server
