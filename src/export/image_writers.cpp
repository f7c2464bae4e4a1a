// The formats that carry the images themselves: warc, zip and wacz (export.hpp).
#include <chrono>
#include <optional>

#include "cdx/cdxj.hpp"
#include "core/timestamp.hpp"
#include "export/format_writer.hpp"
#include "export/image_warc.hpp"
#include "export/table_rows.hpp"
#include "export/zip_stream.hpp"

namespace strata::exporter {
namespace {

std::optional<ArchivedImage> read(const WriterContext& c, const search::Hit& hit, bool payload) {
  auto image = read_image(c.parts, hit.doc, c.options.archive_roots, payload, c.problems);
  if (!image) ++c.summary.skipped;
  return image;
}

std::string now_iso8601() {
  const auto now = std::chrono::system_clock::now().time_since_epoch();
  return timestamp_to_iso8601(
      timestamp_from_epoch(std::chrono::duration_cast<std::chrono::seconds>(now).count()));
}

Json report_json(const WriterContext& c) {
  Json j = to_json(c.summary);
  j["problems"] = problems_json(c.log, 1000);
  return j;
}

class WarcExport final : public FormatWriter {
 public:
  explicit WarcExport(const WriterContext& c)
      : c_(c), warc_("strata-export.warc.gz", c.options.description) {}
  void begin(std::string& out) override { warc_.take(out); }
  void add(const search::Hit& hit, std::string& out) override {
    auto image = read(c_, hit, false);
    if (!image) return;
    warc_.image(*image);
    ++c_.summary.written;
    warc_.take(out);
  }
  void end(std::string& out) override {
    warc_.report(report_json(c_));
    warc_.take(out);
  }

 private:
  WriterContext c_;
  ImageWarc warc_;
};

// "jpg" for image/jpeg, "svg" for image/svg+xml, the subtype otherwise ("bin" without one).
std::string image_extension(const std::string& mime) {
  if (mime == "image/jpeg") return "jpg";
  if (mime == "image/svg+xml") return "svg";
  if (mime == "image/x-icon" || mime == "image/vnd.microsoft.icon") return "ico";
  const auto slash = mime.find('/');
  std::string sub = slash == std::string::npos ? "" : mime.substr(slash + 1);
  if (sub.empty() || sub.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789") != sub.npos)
    return "bin";
  return sub;
}

// images/<digest>.<ext> with the payload as captured (its SHA-256 checked against the
// document's digest), then index.csv (the fields and the file name), export-report.json.
class ZipExport final : public FormatWriter {
 public:
  explicit ZipExport(const WriterContext& c) : c_(c) {
    auto header = c.options.fields;
    header.push_back("file");
    index_ = csv_line(header);
  }
  void begin(std::string&) override {}
  void add(const search::Hit& hit, std::string& out) override {
    auto image = read(c_, hit, true);
    if (!image) return;
    const auto& d = hit.doc;
    if (sha256_hex(image->bytes) != d.imgDigest) {
      c_.problems({d.imgFile, d.imgOffset, "digest_mismatch",
                   d.imgDigest + ": the record's payload has another SHA-256"});
      ++c_.summary.skipped;
      return;
    }
    std::string name = "images/" + d.imgDigest + "." + image_extension(d.imgMimeType);
    zip_.add(name, image->bytes, out);
    auto cells = csv_cells(c_.row(hit), c_.options.fields);
    cells.push_back(std::move(name));
    index_ += csv_line(cells);
    ++c_.summary.written;
  }
  void end(std::string& out) override {
    zip_.add("index.csv", index_, out);
    zip_.add("export-report.json", report_json(c_).dump(2), out);
    zip_.finish(out);
  }

 private:
  WriterContext c_;
  ZipStream zip_;
  std::string index_;
};

// WACZ 1.1.1 (docs/export.md): the WARC first, streamed as archive/data.warc.gz (a new
// archive/data-N.warc.gz past kWarcEntryBytes), then indexes/index.cdx (sorted CDXJ),
// pages/pages.jsonl (one page per image), datapackage.json, datapackage-digest.json.
class WaczExport final : public FormatWriter {
 public:
  static constexpr uint64_t kWarcEntryBytes = 1ull << 30;
  explicit WaczExport(const WriterContext& c) : c_(c) {
    pages_ = R"({"format":"json-pages-1.0","id":"pages","title":"All Pages"})"
             "\n";
  }
  void begin(std::string& out) override { open_warc(out); }
  void add(const search::Hit& hit, std::string& out) override {
    auto image = read(c_, hit, false);
    if (!image) return;
    if (zip_.open_entry_size() > kWarcEntryBytes) close_warc(out), open_warc(out);
    const auto written = warc_->image(*image);
    archive::Record located = image->record;
    located.offset = written.offset;
    located.length = written.length;
    located.decoded_offset = 0;
    cdx_.push_back(cdx::cdxj_line(located, warc_name_));
    add_page(hit.doc, image->record.date);
    ++c_.summary.written;
    pipe(out);
  }
  void end(std::string& out) override {
    warc_->report(report_json(c_));
    close_warc(out);
    cdx::sort_lines(cdx_);
    std::string index;
    for (auto& line : cdx_) index += line + "\n";
    cdx_ = {};
    resources_.push_back(zip_.add("indexes/index.cdx", index, out));
    resources_.push_back(zip_.add("pages/pages.jsonl", pages_, out));
    const auto& package = zip_.add("datapackage.json", datapackage().dump(2), out);
    Json digest = {{"path", "datapackage.json"}, {"hash", "sha256:" + package.sha256}};
    zip_.add("datapackage-digest.json", digest.dump(2), out);
    zip_.finish(out);
  }

 private:
  void open_warc(std::string& out) {
    warc_name_ = files_ == 0 ? "data.warc.gz" : "data-" + std::to_string(files_) + ".warc.gz";
    ++files_;
    warc_.emplace(warc_name_, c_.options.description);
    zip_.begin("archive/" + warc_name_, out);
    pipe(out);
  }
  void close_warc(std::string& out) {
    pipe(out);
    resources_.push_back(zip_.end(out));
  }
  void pipe(std::string& out) {
    std::string bytes;
    warc_->take(bytes);
    zip_.data(bytes, out);
  }
  void add_page(const merge::ImageDocument& d, const std::string& date) {
    Json page = {{"id", d.imgDigest}, {"url", d.imgUrl}, {"ts", timestamp_to_iso8601(date)}};
    const auto& titles = !d.imgTitle.empty() ? d.imgTitle : d.imgAlt;
    if (!titles.empty()) page["title"] = titles.front();
    pages_ += page.dump(-1, ' ', false, Json::error_handler_t::replace) + "\n";
  }
  Json datapackage() const {
    Json resources = Json::array();
    for (const auto& e : resources_) {
      const auto slash = e.name.rfind('/');
      resources.push_back({{"name", e.name.substr(slash + 1)},
                           {"path", e.name},
                           {"hash", "sha256:" + e.sha256},
                           {"bytes", e.size}});
    }
    return {{"profile", "data-package"},      {"wacz_version", "1.1.1"},
            {"title", "Strata image export"}, {"description", c_.options.description},
            {"created", now_iso8601()},       {"software", "Strata (strata export)"},
            {"resources", resources}};
  }

  WriterContext c_;
  ZipStream zip_;
  std::optional<ImageWarc> warc_;
  std::string warc_name_;
  unsigned files_ = 0;
  std::vector<std::string> cdx_;
  std::string pages_;
  std::vector<ZipEntry> resources_;
};

}  // namespace

std::unique_ptr<FormatWriter> make_warc_writer(const WriterContext& context) {
  return std::make_unique<WarcExport>(context);
}
std::unique_ptr<FormatWriter> make_zip_writer(const WriterContext& context) {
  return std::make_unique<ZipExport>(context);
}
std::unique_ptr<FormatWriter> make_wacz_writer(const WriterContext& context) {
  return std::make_unique<WaczExport>(context);
}

}  // namespace strata::exporter
