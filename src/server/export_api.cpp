#include "server/export_api.hpp"

#include <xapian.h>

#include <charconv>
#include <chrono>
#include <memory>

#include "core/timestamp.hpp"
#include "index/shard_layout.hpp"
#include "server/api_items.hpp"
#include "server/api_params.hpp"

namespace strata::server {
namespace {

using search::RequestError;

const std::string* last(const Params& p, const std::string& name) {
  auto [first, end] = p.equal_range(name);
  return first == end ? nullptr : &std::prev(end)->second;
}

uint64_t parse_max_items(const std::string& v, uint64_t cap) {
  uint64_t n = 0;
  auto [ptr, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
  if (v.empty() || ec != std::errc() || ptr != v.data() + v.size() || n == 0)
    throw RequestError("maxItems", "maxItems must be a positive integer");
  if (n > cap)
    throw RequestError("maxItems", "maxItems must be at most " + std::to_string(cap) +
                                       " (this server's export cap)");
  return n;
}

// What was asked, for the warcinfo and datapackage.json: the parameters as given, control
// characters as spaces (the warcinfo block is "name: value" lines).
std::string describe(const Params& p) {
  std::string text;
  for (const auto& [k, v] : p) text += (text.empty() ? "" : " ") + k + "=" + v;
  for (char& c : text)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = ' ';
  return text;
}

std::string file_name(exporter::Format format) {
  const auto now = std::chrono::system_clock::now().time_since_epoch();
  return "strata-export-" +
         timestamp_from_epoch(std::chrono::duration_cast<std::chrono::seconds>(now).count()) +
         std::string(exporter::file_extension(format));
}

}  // namespace

std::string over_cap_message(uint64_t total, uint64_t cap) {
  return "the result set has " + std::to_string(total) + " images, more than the export cap of " +
         std::to_string(cap) +
         ": narrow the query (from, to, type, siteSearch, collection) or set maxItems to "
         "export the first ones";
}

ExportRequest parse_export_params(const Params& params, const ApiConfig& config) {
  for (const char* name : {"offset", "redundancy", "redundancyWindow", "expand"})
    if (params.count(name))
      throw RequestError(name, std::string(name) + " does not apply to an export");
  Params search_params;
  for (const auto& [k, v] : params)
    if (k != "format" && k != "maxItems" && k != "progress") search_params.emplace(k, v);
  ApiRequest api = parse_api_params(search_params, config);
  ExportRequest r;
  r.search = std::move(api.search);
  r.search.redundancy_fixed = true;  // an export takes every result: redundancy: in q is ignored
  r.options.fields = std::move(api.fields);
  const std::string* format = last(params, "format");
  const auto parsed = exporter::parse_format(format ? *format : "csv");
  if (!parsed) throw RequestError("format", "format must be csv, jsonl, warc, zip or wacz");
  r.options.format = *parsed;
  r.options.max_images = config.export_max_images;
  if (const auto* v = last(params, "maxItems"))
    r.options.max_images = parse_max_items(*v, config.export_max_images);
  if (const auto* v = last(params, "progress")) {
    if (!ExportProgress::valid_token(*v))
      throw RequestError("progress", "progress must be 16 to 64 letters, digits, '-' or '_'");
    r.progress = *v;
  }
  r.options.description = describe(params);
  return r;
}

exporter::RowFn export_rows(std::vector<std::string> fields, std::string wayback) {
  return [fields = std::move(fields), wayback = std::move(wayback)](const search::Hit& hit) {
    return api_item(hit, fields, wayback);
  };
}

std::shared_ptr<ExportSource> export_source(const std::filesystem::path& index_dir) {
  std::vector<std::filesystem::path> folders = index::shard_folders(index_dir);
  if (folders.empty()) folders.push_back(index_dir);
  std::vector<Xapian::Database> parts;
  Xapian::Database db;
  for (const auto& folder : folders) {
    parts.emplace_back(folder.string());
    db.add_database(parts.back());
  }
  return std::make_shared<ExportSource>(ExportSource{db, search::IndexParts(parts, false)});
}

HttpResponse export_reply(std::shared_ptr<ExportSource> source, const Params& params,
                          const RequestContext& ctx, const ApiConfig& config,
                          const std::vector<std::filesystem::path>& archive_roots,
                          ExportProgress* progress) {
  auto to_response = [](const Reply& r) {
    HttpResponse out;
    out.status = r.status;
    out.body = r.body;
    return out;
  };
  // The source outlives the exporter reading it.
  struct Running {
    std::shared_ptr<ExportSource> source;
    std::unique_ptr<exporter::Exporter> exporter;
  };
  auto running = std::make_shared<Running>(Running{std::move(source), nullptr});
  auto& exporter = running->exporter;
  ExportRequest req;
  try {
    req = parse_export_params(params, config);
    req.options.archive_roots = archive_roots;
    const std::string wayback =
        config.replay_prefix.empty() ? ctx.base + "/wayback/" : config.replay_prefix;
    const bool capped = last(params, "maxItems") == nullptr;
    exporter = std::make_unique<exporter::Exporter>(running->source->db, running->source->parts,
                                                    req.search, req.options,
                                                    export_rows(req.options.fields, wayback));
    if (capped && exporter->total() > config.export_max_images)
      throw RequestError("maxItems", over_cap_message(exporter->total(), config.export_max_images));
  } catch (const RequestError& e) {
    return to_response(bad_request(e.parameter, e.what(), config));
  }
  HttpResponse r;
  r.content_type = exporter::content_type(req.options.format);
  r.headers.emplace_back("Content-Disposition",
                         "attachment; filename=\"" + file_name(req.options.format) + "\"");
  const uint64_t total = std::min<uint64_t>(exporter->total(), req.options.max_images);
  r.headers.emplace_back("X-Strata-Export-Total", std::to_string(total));
  std::shared_ptr<ExportCount> count;
  if (progress && !req.progress.empty()) count = progress->track(req.progress, total);
  r.stream = [running, count](std::string& piece) {
    try {
      const bool more = running->exporter->next(piece);
      if (count) {
        count->images = running->exporter->summary().results;
        count->done = !more;
      }
      return more;
    } catch (const Xapian::Error& e) {  // not a std::exception
      throw std::runtime_error(e.get_description());
    }
  };
  return r;
}

}  // namespace strata::server
