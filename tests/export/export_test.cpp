#include <gtest/gtest.h>
#include <httplib.h>
#include <zip.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "archive/reader.hpp"
#include "export/export.hpp"
#include "export/wacz_check.hpp"
#include "image_archive.hpp"
#include "server/export_api.hpp"
#include "server/running_server.hpp"
#include "testing/shared_data.hpp"

namespace strata::exporter {
namespace {

using testing::kImages;

// Resident memory now, in KiB (/proc/self/status VmRSS).
long resident_kib() {
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);)
    if (line.rfind("VmRSS:", 0) == 0) return std::stol(line.substr(6));
  return 0;
}

struct Exported {
  std::filesystem::path file;
  ExportSummary summary;
  size_t problems = 0;
  long rss_growth_kib = 0;  // largest VmRSS while exporting, less VmRSS before
};

class Export : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    archive_ = new testing::ImageArchive(
        testing::make_image_archive(strata::testing::scratch_dir() / "export"));
  }
  static void TearDownTestSuite() { delete archive_; }

  // Exports `params` (the endpoint's parameters) to a file, piece by piece.
  Exported run(server::Params params, const std::string& name) {
    server::ApiConfig config;
    auto req = server::parse_export_params(params, config);
    const auto source = server::export_source(archive_->index);
    Exporter exporter(source->db, source->parts, req.search, req.options,
                      server::export_rows(req.options.fields, "/wayback/"));
    Exported e{archive_->index.parent_path() / name, {}, 0, 0};
    std::ofstream out(e.file, std::ios::binary | std::ios::trunc);
    const long before = resident_kib();
    std::string piece;
    for (bool more = true; more; piece.clear()) {
      more = exporter.next(piece);
      // At most one image past the piece size; the last piece holds what a zip or wacz
      // collects for its end (index.csv, the CDXJ index, pages, the central directory).
      if (more) {
        EXPECT_LE(piece.size(), req.options.piece_bytes + (1 << 20));
      }
      out << piece;
      e.rss_growth_kib = std::max(e.rss_growth_kib, resident_kib() - before);
    }
    e.summary = exporter.summary();
    e.problems = exporter.problems().total();
    return e;
  }

  static std::vector<std::string> lines(const std::filesystem::path& file) {
    std::ifstream in(file);
    std::vector<std::string> out;
    for (std::string line; std::getline(in, line);) out.push_back(line);
    return out;
  }

  // Every response record of a WARC (or WACZ): URL -> SHA-256 of its payload; no problems.
  static std::map<std::string, std::string> payloads(const std::filesystem::path& file,
                                                     std::string* report = nullptr) {
    ProblemLog log;
    auto reader = archive::ArchiveReader::open(file, {}, log.sink());
    std::map<std::string, std::string> out;
    while (reader->next()) {
      const auto& r = reader->record();
      std::string payload;
      if (r.type == archive::RecordType::metadata && report) reader->read_payload(*report);
      if (r.type != archive::RecordType::response) continue;
      EXPECT_EQ(reader->read_payload(payload), archive::PayloadStatus::ok);
      out[r.target_uri] = sha256_hex(payload);
    }
    EXPECT_EQ(log.total(), 0u) << problem_report(log);
    return out;
  }

  void expect_every_image(const std::map<std::string, std::string>& sha256_by_url) {
    ASSERT_EQ(sha256_by_url.size(), size_t{kImages});
    for (int i = 0; i < kImages; ++i)
      ASSERT_EQ(sha256_by_url.at(testing::image_url(i)), archive_->digests[i]) << i;
  }

  static testing::ImageArchive* archive_;
};

testing::ImageArchive* Export::archive_ = nullptr;

server::Params all(const std::string& format) {
  return {{"q", "lisboa"}, {"format", format}, {"collapse", "off"}};
}

TEST_F(Export, CsvHasEveryResultWithTheApiFieldNames) {
  auto e = run(all("csv"), "all.csv");
  EXPECT_EQ(e.summary.results, size_t{kImages + 1});
  const auto rows = lines(e.file);
  ASSERT_EQ(rows.size(), size_t{kImages + 2});
  EXPECT_EQ(rows[0].rfind("imgDigest,imgSrc,imgMimeType,imgHeight,imgWidth,imgTstamp,", 0), 0u);
  // A list is joined with " | "; a cell with a quote or comma is quoted, quotes doubled.
  EXPECT_NE(rows[1].find(R"( | ponte, ""25 de Abril""",)"), std::string::npos) << rows[1];
  std::set<std::string> digests;
  for (size_t i = 1; i < rows.size(); ++i) digests.insert(rows[i].substr(0, 64));
  for (const auto& d : archive_->digests) EXPECT_TRUE(digests.count(d)) << d;
}

TEST_F(Export, JsonlHasTheChosenFields) {
  auto params = all("jsonl");
  params.emplace("fields", "imgDigest,imgSrc,pageTitle");
  auto e = run(params, "all.jsonl");
  const auto rows = lines(e.file);
  ASSERT_EQ(rows.size(), size_t{kImages + 1});
  const Json first = Json::parse(rows[0]);
  EXPECT_EQ(first.size(), 3u);
  EXPECT_TRUE(first.contains("imgSrc") && first.contains("pageTitle")) << rows[0];
}

TEST_F(Export, WarcReadsBackWithEveryImagesOriginalPayloadAndFlatMemory) {
  std::string report;
  auto e = run(all("warc"), "all.warc.gz");
  EXPECT_EQ(e.summary.written, size_t{kImages});
  EXPECT_EQ(e.summary.skipped, 1u);  // the document whose archive is gone
  EXPECT_EQ(e.problems, 1u);
  expect_every_image(payloads(e.file, &report));
  const Json r = Json::parse(report);
  EXPECT_EQ(r["skipped"], 1);
  EXPECT_EQ(r["problems"]["by_kind"]["archive_unavailable"], 1) << report;
  // Pieces are written as they come: memory does not grow with the 10,000 images.
  EXPECT_LT(e.rss_growth_kib, 32 * 1024) << "KiB";
  std::cout << "warc export: " << e.summary.bytes << " bytes, resident memory +" << e.rss_growth_kib
            << " KiB\n";
}

// Reading each image's record costs about a millisecond of CPU (the archive reader is opened
// for it), so the zip test takes the first 2,000 images; warc and wacz take all 10,000.
TEST_F(Export, ZipHoldsEachImageByDigestAndAnIndex) {
  auto params = all("zip");
  params.emplace("maxItems", "2000");
  auto e = run(params, "first.zip");
  int error = 0;
  zip_t* z = zip_open(e.file.c_str(), ZIP_RDONLY, &error);
  ASSERT_NE(z, nullptr);
  size_t images = 0;
  for (zip_int64_t i = 0; i < zip_get_num_entries(z, 0); ++i) {
    zip_stat_t st;
    ASSERT_EQ(zip_stat_index(z, i, 0, &st), 0);
    const std::string name = st.name;
    if (name.rfind("images/", 0) != 0) continue;
    std::string bytes(st.size, '\0');
    zip_file_t* f = zip_fopen_index(z, i, 0);
    ASSERT_EQ(zip_fread(f, bytes.data(), st.size), static_cast<zip_int64_t>(st.size));
    zip_fclose(f);
    ASSERT_EQ("images/" + sha256_hex(bytes) + ".gif", name);
    ++images;
  }
  EXPECT_EQ(e.summary.results, 2000u);
  EXPECT_EQ(images, e.summary.written);
  EXPECT_EQ(e.summary.written + e.summary.skipped, 2000u);
  EXPECT_GE(zip_name_locate(z, "index.csv", 0), 0);
  EXPECT_GE(zip_name_locate(z, "export-report.json", 0), 0);
  zip_discard(z);
}

TEST_F(Export, WaczIsValidAndReadsBack) {
  auto e = run(all("wacz"), "all.wacz");
  EXPECT_EQ(check_wacz(e.file), std::vector<std::string>{});
  expect_every_image(payloads(e.file));
}

TEST_F(Export, MaxItemsTakesTheFirstResults) {
  auto params = all("jsonl");
  params.emplace("maxItems", "1234");
  EXPECT_EQ(lines(run(params, "first.jsonl").file).size(), 1234u);
}

TEST_F(Export, ParametersAreValidatedAsTheApiDoes) {
  auto refused = [](server::Params p) {
    try {
      server::parse_export_params(p, {});
    } catch (const search::RequestError& e) {
      return e.parameter;
    }
    return std::string("(accepted)");
  };
  EXPECT_EQ(refused({{"q", "x"}, {"format", "pdf"}}), "format");
  EXPECT_EQ(refused({{"q", "x"}, {"offset", "10"}}), "offset");
  EXPECT_EQ(refused({{"q", "x"}, {"redundancy", "near"}}), "redundancy");
  EXPECT_EQ(refused({{"q", "x"}, {"fields", "nope"}}), "fields");
  EXPECT_EQ(refused({{"q", "x"}, {"from", "20x"}}), "from");
  EXPECT_EQ(refused({{"q", "x"}, {"maxItems", "100001"}}), "maxItems");
  EXPECT_EQ(refused({{"q", "x"}, {"maxItems", "0"}}), "maxItems");
}

// The endpoint: the same export, streamed chunked, as a download.
TEST_F(Export, EndpointStreamsTheWholeResultSet) {
  server::ServerOptions o;
  o.index_dir = archive_->index;
  server::testing::RunningServer running(o);
  httplib::Client c("127.0.0.1", running.port());
  auto r = c.Get("/imagesearch/export?q=lisboa&format=jsonl&collapse=off&fields=imgDigest");
  ASSERT_TRUE(r);
  ASSERT_EQ(r->status, 200) << r->body;
  EXPECT_EQ(r->get_header_value("Transfer-Encoding"), "chunked");
  EXPECT_EQ(r->get_header_value("Content-Type"), "application/x-ndjson; charset=UTF-8");
  EXPECT_EQ(
      r->get_header_value("Content-Disposition").rfind("attachment; filename=\"strata-export-", 0),
      0u);
  EXPECT_EQ(std::count(r->body.begin(), r->body.end(), '\n'), kImages + 1);

  r = c.Get("/imagesearch/export?q=lisboa&format=warc&maxItems=300&collapse=off");
  ASSERT_TRUE(r);
  ProblemLog log;
  auto reader = archive::ArchiveReader::open_memory(r->body, "export.warc.gz", {}, log.sink());
  size_t responses = 0;
  std::string report;
  while (reader->next()) {
    responses += reader->record().type == archive::RecordType::response;
    if (reader->record().type == archive::RecordType::metadata) reader->read_payload(report);
  }
  const Json summary = Json::parse(report);
  EXPECT_EQ(summary["results"], 300);
  EXPECT_EQ(summary["written"], responses);
  EXPECT_EQ(log.total(), 0u);

  r = c.Get("/imagesearch/export?q=lisboa&format=docx");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 400);
  EXPECT_EQ(Json::parse(r->body)["error"]["parameter"], "format");
}

TEST_F(Export, EndpointRefusesAResultSetOverTheCap) {
  server::ServerOptions o;
  o.index_dir = archive_->index;
  o.api.export_max_images = 100;
  server::testing::RunningServer running(o);
  httplib::Client c("127.0.0.1", running.port());
  auto r = c.Get("/imagesearch/export?q=lisboa&collapse=off");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 400);
  const Json error = Json::parse(r->body)["error"];
  EXPECT_EQ(error["parameter"], "maxItems");
  EXPECT_NE(
      error["message"].get<std::string>().find("has 10001 images, more than the export cap of 100"),
      std::string::npos)
      << r->body;
  r = c.Get("/imagesearch/export?q=lisboa&collapse=off&maxItems=100");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
  EXPECT_EQ(std::count(r->body.begin(), r->body.end(), '\n'), 101);  // header and rows
}

// Progress of an export asked for with a token (docs/api.md, "Export progress"): the count of
// images it has streamed, its total, and done once the last byte went out.
TEST_F(Export, EndpointReportsProgressByToken) {
  server::ServerOptions o;
  o.index_dir = archive_->index;
  server::testing::RunningServer running(o);
  httplib::Client c("127.0.0.1", running.port());
  const std::string token = "a1b2c3d4e5f6a7b8c9d0";
  auto r = c.Get("/imagesearch/export/progress?token=" + token);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 404);  // no export with it yet
  r = c.Get("/imagesearch/export?q=lisboa&format=csv&collapse=off&maxItems=300&progress=" + token);
  ASSERT_TRUE(r);
  ASSERT_EQ(r->status, 200) << r->body;
  EXPECT_EQ(std::count(r->body.begin(), r->body.end(), '\n'), 301);
  r = c.Get("/imagesearch/export/progress?token=" + token);
  ASSERT_TRUE(r);
  ASSERT_EQ(r->status, 200) << r->body;
  const Json progress = Json::parse(r->body);
  EXPECT_EQ(progress["images"], 300);
  EXPECT_EQ(progress["total"], 300);
  EXPECT_EQ(progress["done"], true);

  for (const char* bad : {"short", "has%20space%20in%20it%20here", ""}) {
    r = c.Get(std::string("/imagesearch/export/progress?token=") + bad);
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, 400) << bad;
    EXPECT_EQ(Json::parse(r->body)["error"]["parameter"], "token");
    r = c.Get(std::string("/imagesearch/export?q=lisboa&maxItems=5&progress=") + bad);
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, 400) << bad;
    EXPECT_EQ(Json::parse(r->body)["error"]["parameter"], "progress");
  }
}

TEST(ExportProgress, KeepsTheLatestExportsOnly) {
  server::ExportProgress p;
  auto first = p.track("first-export-token", 10);
  for (size_t k = 0; k < server::ExportProgress::kMaxTracked; ++k)
    p.track("later-export-" + std::to_string(1000 + k), 1);
  server::Params params{{"token", "first-export-token"}};
  EXPECT_EQ(p.reply(params, {}).status, 404);
  params = {{"token", "later-export-1255"}};
  EXPECT_EQ(p.reply(params, {}).status, 200);
}

}  // namespace
}  // namespace strata::exporter
