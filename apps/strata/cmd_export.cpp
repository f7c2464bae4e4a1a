// `strata export --index DIR QUERY -o FILE [--format F] ...`: the whole result set of a query
// as csv, jsonl, warc, zip or wacz (docs/export.md), with /imagesearch's parameters and their
// validation. Written to FILE.part and renamed at the end, so an interrupted export leaves no
// file that looks complete.
#include <xapian.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>

#include "command.hpp"
#include "core/exit_codes.hpp"
#include "core/progress.hpp"
#include "server/export_api.hpp"

namespace {

namespace fs = std::filesystem;
using strata::server::Params;

struct Options {
  std::string index, query, output, format = "csv", fields, from, to, type, site, collection;
  std::string safe_search = "on", collapse = "on", decorative;
  uint64_t max_images = 0;
  std::vector<fs::path> archive_roots;
  std::string replay_url = "/wayback/";
};

Params to_params(const Options& o) {
  Params p{{"q", o.query},
           {"format", o.format},
           {"safeSearch", o.safe_search},
           {"collapse", o.collapse}};
  const std::pair<const char*, const std::string*> optional[] = {{"fields", &o.fields},
                                                                 {"from", &o.from},
                                                                 {"to", &o.to},
                                                                 {"type", &o.type},
                                                                 {"siteSearch", &o.site},
                                                                 {"collection", &o.collection},
                                                                 {"decorative", &o.decorative}};
  for (const auto& [name, value] : optional)
    if (!value->empty()) p.emplace(name, *value);
  if (o.max_images) p.emplace("maxItems", std::to_string(o.max_images));
  return p;
}

int write(strata::exporter::Exporter& exporter, const fs::path& output) {
  const fs::path part = output.string() + ".part";
  std::ofstream out(part, std::ios::binary | std::ios::trunc);
  if (!out) {
    std::cerr << "cannot write " << part.string() << '\n';
    return strata::exit_code::failure;
  }
  strata::Progress progress("export", exporter.total(), "images", "");
  std::string piece;
  for (bool more = true; more;) {
    const uint64_t before = exporter.summary().results;
    more = exporter.next(piece);
    out.write(piece.data(), static_cast<std::streamsize>(piece.size()));
    piece.clear();
    progress.advance(exporter.summary().results - before);
  }
  progress.finish();
  out.close();
  std::error_code ec;
  if (out.fail() || (fs::rename(part, output, ec), ec)) {
    std::cerr << "cannot write " << output.string() << '\n';
    return strata::exit_code::failure;
  }
  return strata::exit_code::ok;
}

int run(const Options& o) {
  strata::server::ApiConfig config;
  config.safe_search = true;
  config.replay_prefix = o.replay_url;
  config.export_max_images = std::numeric_limits<uint64_t>::max();
  strata::server::ExportRequest req;
  try {
    req = strata::server::parse_export_params(to_params(o), config);
    req.options.archive_roots = o.archive_roots;
    const auto source = strata::server::export_source(o.index);
    strata::exporter::Exporter exporter(
        source->db, source->parts, req.search, req.options,
        strata::server::export_rows(req.options.fields, config.replay_prefix));
    if (int rc = write(exporter, o.output); rc != strata::exit_code::ok) return rc;
    strata::Json report = strata::exporter::to_json(exporter.summary());
    report["format"] = o.format;
    report["output"] = o.output;
    report["problems"] = strata::problems_json(exporter.problems());
    strata::cli::print_report(report);
    return exporter.summary().skipped ? strata::exit_code::input_problems : strata::exit_code::ok;
  } catch (const strata::search::RequestError& e) {
    std::cerr << "strata export: " << e.parameter << ": " << e.what() << '\n';
    return strata::exit_code::usage;
  } catch (const Xapian::Error& e) {
    std::cerr << "strata export: index " << o.index << ": " << e.get_description() << '\n';
    return strata::exit_code::failure;
  }
}

const bool registered = strata::cli::register_command(
    "export", "Export the whole result set of a query (csv, jsonl, warc, zip, wacz)",
    [](CLI::App& app) -> strata::cli::Runner {
      auto o = std::make_shared<Options>();
      app.add_option("--index", o->index, "index folder")->required();
      app.add_option("query", o->query, "the query, as /imagesearch's q")->required();
      app.add_option("-o,--output", o->output, "output file")->required();
      app.add_option("--format", o->format, "csv, jsonl, warc, zip or wacz (default csv)");
      app.add_option("--fields", o->fields, "csv/jsonl columns, /imagesearch's field names");
      app.add_option("--from", o->from, "yyyy, yyyyMMdd or yyyyMMddHHmmss");
      app.add_option("--to", o->to, "yyyy, yyyyMMdd or yyyyMMddHHmmss");
      app.add_option("--type", o->type, "image types (jpeg,png,...)");
      app.add_option("--site", o->site, "siteSearch: hosts or *.domain");
      app.add_option("--collection", o->collection, "collections");
      app.add_option("--safe-search", o->safe_search, "on (default) or off");
      app.add_option("--collapse", o->collapse, "near-duplicates as one result: on (default), off");
      app.add_option("--decorative", o->decorative, "decorative images: show or hide (default)");
      app.add_option("--max", o->max_images, "at most this many images (default: all)");
      app.add_option("--archive-root", o->archive_roots, "where moved archives are looked for");
      app.add_option("--replay-url", o->replay_url, "prefix of the *LinkToArchive fields");
      return [o] { return run(*o); };
    });

}  // namespace
