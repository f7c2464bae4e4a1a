#include "export/export.hpp"

#include <array>

#include "export/format_writer.hpp"
#include "export/result_pages.hpp"

namespace strata::exporter {
namespace {

struct FormatInfo {
  Format format;
  std::string_view name, content_type, extension;
};

constexpr std::array<FormatInfo, 5> kFormats{{
    {Format::csv, "csv", "text/csv; charset=UTF-8", ".csv"},
    {Format::jsonl, "jsonl", "application/x-ndjson; charset=UTF-8", ".jsonl"},
    {Format::warc, "warc", "application/warc", ".warc.gz"},
    {Format::zip, "zip", "application/zip", ".zip"},
    {Format::wacz, "wacz", "application/wacz", ".wacz"},
}};

const FormatInfo& info(Format format) {
  return kFormats[static_cast<size_t>(format)];
}

}  // namespace

std::optional<Format> parse_format(std::string_view name) {
  for (const auto& f : kFormats)
    if (f.name == name) return f.format;
  return std::nullopt;
}
std::string_view format_name(Format format) {
  return info(format).name;
}
std::string_view content_type(Format format) {
  return info(format).content_type;
}
std::string_view file_extension(Format format) {
  return info(format).extension;
}

struct Exporter::Impl {
  Impl(Xapian::Database& db, const search::IndexParts& parts, search::SearchRequest request,
       ExportOptions o, RowFn r)
      : options(std::move(o)),
        row(std::move(r)),
        pages(db, parts, std::move(request), options.max_images),
        context{parts, options, row, summary, problems.sink(), problems} {
    using Make = std::unique_ptr<FormatWriter> (*)(const WriterContext&);
    constexpr std::array<Make, 5> make{make_csv_writer, make_jsonl_writer, make_warc_writer,
                                       make_zip_writer, make_wacz_writer};
    writer = make[static_cast<size_t>(options.format)](context);
  }

  ExportOptions options;
  RowFn row;
  ResultPages pages;
  ExportSummary summary;
  ProblemLog problems{1000};
  WriterContext context;
  std::unique_ptr<FormatWriter> writer;
  std::vector<search::Hit> page;
  size_t at = 0;
  bool started = false, done = false;
};

Exporter::Exporter(Xapian::Database& db, const search::IndexParts& parts,
                   search::SearchRequest request, ExportOptions options, RowFn row)
    : impl_(std::make_unique<Impl>(db, parts, std::move(request), std::move(options),
                                   std::move(row))) {}

Exporter::~Exporter() = default;

uint64_t Exporter::total() const {
  return impl_->pages.total();
}

bool Exporter::next(std::string& out) {
  auto& m = *impl_;
  const size_t before = out.size();
  if (!m.started) m.writer->begin(out), m.started = true;
  while (!m.done && out.size() - before < m.options.piece_bytes) {
    if (m.at == m.page.size()) {
      m.page = m.pages.next();
      m.at = 0;
      if (m.page.empty()) {
        m.writer->end(out);
        m.done = true;
        break;
      }
    }
    ++m.summary.results;
    m.writer->add(m.page[m.at++], out);
  }
  m.summary.bytes += out.size() - before;
  return !m.done;
}

const ExportSummary& Exporter::summary() const {
  return impl_->summary;
}

const ProblemLog& Exporter::problems() const {
  return impl_->problems;
}

Json to_json(const ExportSummary& s) {
  return {
      {"results", s.results}, {"written", s.written}, {"skipped", s.skipped}, {"bytes", s.bytes}};
}

}  // namespace strata::exporter
