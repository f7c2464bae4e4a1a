// Locations that always lead to the right bytes, end to end on aut's example.warc.gz packed
// three ways by the test: a WACZ laid out as Browsertrix/py-wacz write it (the real
// per-record gzip WARC stored under archive/, datapackage.json, indexes/, pages/), a
// whole-file gzip copy and a whole-file zstd copy. Every image is read at its stored
// location byte-exact, analysed, found under safe search when classified and replayed over
// HTTP; the index and its archives moved elsewhere keep working with archive roots or after
// relocate; a missing or changed archive gives a clear error and never other bytes.
#include <gtest/gtest.h>
#include <httplib.h>
#include <xapian.h>

#include <fstream>
#include <map>
#include <thread>

#include "analyze/record.hpp"
#include "analyze/run.hpp"
#include "archive/locate.hpp"
#include "core/digest.hpp"
#include "core/json.hpp"
#include "index/archive_registry.hpp"
#include "real_index.hpp"
#include "server/server.hpp"
#include "testing/containers.hpp"
#include "testing/shared_data.hpp"

namespace strata::server {
namespace {

namespace fs = std::filesystem;

constexpr const char* kExample =
    "archives/archivesunleashed__aut/src/test/resources/warc/example.warc.gz";

enum class Container { wacz, gzip_whole, zstd_whole };

// WACZ 1.1 as py-wacz writes it; the CDXJ and pages list come from the WARC's records.
void write_wacz(const fs::path& path, const std::string& warc_gz) {
  const fs::path warc = path.parent_path() / "data.warc.gz";
  strata::testing::write_file(warc, warc_gz);
  std::string cdxj, pages = R"({"format":"json-pages-1.0","id":"pages","title":"All Pages"})"
                            "\n";
  auto reader = archive::ArchiveReader::open(warc, {}, {});
  while (reader->next()) {
    reader->finish_record();
    const archive::Record& r = reader->record();
    if (r.type != archive::RecordType::response) continue;
    cdxj += r.target_uri + " " + r.date + " " +
            Json{{"url", r.target_uri},
                 {"offset", r.offset},
                 {"length", r.length},
                 {"filename", "data.warc.gz"}}
                .dump() +
            "\n";
    if (r.http.mime == "text/html")
      pages += Json{{"url", r.target_uri}, {"ts", r.date}}.dump() + "\n";
  }
  fs::remove(warc);
  const Json datapackage = {{"profile", "data-package"},
                            {"wacz_version", "1.1.1"},
                            {"resources", Json::array({{{"name", "data.warc.gz"},
                                                        {"path", "archive/data.warc.gz"},
                                                        {"hash", "sha256:" + sha256_hex(warc_gz)},
                                                        {"bytes", warc_gz.size()}}})}};
  strata::testing::write_zip(path, {{"archive/data.warc.gz", warc_gz},
                                    {"datapackage.json", datapackage.dump(2)},
                                    {"indexes/index.cdxj", cdxj},
                                    {"pages/pages.jsonl", pages}});
}

// The container in `dir`; returns the archive key extraction must give its records.
std::string make_archive(Container c, const fs::path& dir) {
  fs::create_directories(dir);
  const std::string gz = strata::testing::read_file(strata::testing::shared_data(kExample));
  switch (c) {
    case Container::wacz:
      write_wacz(dir / "crawl.wacz", gz);
      return (dir / "crawl.wacz").string() + "#archive/data.warc.gz";
    case Container::gzip_whole:
      strata::testing::write_file(dir / "example.warc.gz",
                                  strata::testing::gzip_whole(strata::testing::gunzip_all(gz)));
      return (dir / "example.warc.gz").string();
    case Container::zstd_whole:
      strata::testing::write_file(dir / "example.warc.zst",
                                  strata::testing::zstd_whole(strata::testing::gunzip_all(gz)));
      return (dir / "example.warc.zst").string();
  }
  return {};
}

std::vector<Json> lines(const fs::path& path) {
  std::vector<Json> out;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) out.push_back(Json::parse(line));
  return out;
}

Counters analyse(const fs::path& documents, const fs::path& index_dir,
                 std::vector<fs::path> roots = {}) {
  analyze::RunOptions o;
  o.documents = documents;
  o.out = index_dir;
  o.jobs = 2;
  o.classify = analyze::find_nsfw_models().has_value();
  o.archive_roots = std::move(roots);
  if (index::index_exists(index_dir)) {
    auto db = std::make_shared<Xapian::Database>(index_dir.string());
    o.registered = [db](const std::string& key) { return index::registered_archive(*db, key); };
  }
  return analyze::run_analysis(o);
}

struct Running {
  explicit Running(ServerOptions options) : server(std::move(options)) {
    EXPECT_TRUE(server.bind());
    thread = std::thread([this] { server.run(); });
    client = std::make_unique<httplib::Client>("127.0.0.1", server.port());
  }
  ~Running() {
    server.stop();
    thread.join();
  }
  Json search(const std::string& query) {
    auto r = client->Get(
        ("/imagesearch?maxItems=100&fields=imgDigest,imgLinkToArchive&" + query).c_str());
    EXPECT_TRUE(r && r->status == 200);
    return r ? Json::parse(r->body)["responseItems"] : Json::array();
  }
  httplib::Result replay(const Json& item) {
    const std::string link = item["imgLinkToArchive"];
    return client->Get(link.substr(link.find("/wayback/")).c_str());
  }
  Server server;
  std::thread thread;
  std::unique_ptr<httplib::Client> client;
};

ServerOptions options_for(const fs::path& index_dir, std::vector<fs::path> roots = {}) {
  ServerOptions o;
  o.index_dir = index_dir;
  o.port = 0;
  o.archive_roots = std::move(roots);
  return o;
}

class Locations : public ::testing::TestWithParam<Container> {
 protected:
  void SetUp() override {
    STRATA_REQUIRE_SHARED();
    work_ = strata::testing::scratch_dir();
    site_ = work_ / "site";
    key_ = make_archive(GetParam(), site_ / "archives");
    const fs::path archive = archive::container_of(key_);
    documents_ = testing::merged_documents(archive, site_);
    // Valid files: no problem reported (the commands' exit 0).
    const Json extracted =
        Json::parse(strata::testing::read_file(site_ / "extract" / "counters.json"));
    EXPECT_EQ(extracted.value("problems", 0), 0) << extracted.dump();
    analysis_ = analyse(documents_, site_ / "index");
    testing::index_documents(documents_, site_);
    docs_ = lines(documents_);
    ASSERT_EQ(docs_.size(), 23u);  // the example's images above the size gates
  }

  fs::path work_, site_, documents_;
  std::string key_;
  Counters analysis_;
  std::vector<Json> docs_;
};

TEST_P(Locations, EveryImageReadAnalysedFoundAndReplayedByteExact) {
  for (const Json& d : docs_) {
    EXPECT_EQ(d["imgFile"], key_);
    archive::CheckedRecord rec =
        archive::read_checked_record(d["imgFile"], d["imgOffset"], d["imgUrl"].get<std::string>());
    ASSERT_TRUE(rec.reader) << rec.error;
    std::string payload;
    ASSERT_EQ(rec.reader->read_payload(payload), archive::PayloadStatus::ok);
    EXPECT_EQ(sha256_hex(payload), d["imgDigest"]);
  }
  EXPECT_EQ(analysis_.get("images"), 23);
  EXPECT_EQ(analysis_.get("thumbnails_written"), 23);
  EXPECT_EQ(analysis_.get("bytes_missing"), 0);
  std::map<std::string, bool> visible;
  for (const Json& line : lines(site_ / "index" / "analysis.jsonl")) {
    analyze::AnalysisRecord r;
    ASSERT_TRUE(analyze::from_json(line, r));
    EXPECT_FALSE(r.thumbnail.empty()) << r.digest;
    visible[r.digest] = analyze::visible_under_safe_search(r);
  }
  ASSERT_EQ(visible.size(), 23u);

  Running s(options_for(site_ / "index"));
  const Json all = s.search("q=archive&safeSearch=off&decorative=show&collapse=off");
  ASSERT_EQ(all.size(), 23u);
  size_t shown = 0;
  for (const Json& item : all) {
    auto r = s.replay(item);
    ASSERT_TRUE(r);
    ASSERT_EQ(r->status, 200) << r->body;
    EXPECT_EQ(sha256_hex(r->body), item["imgDigest"]);
    shown += visible[item["imgDigest"]];
  }
  if (analysis_.get("classified") == 23) {
    EXPECT_GT(shown, 0u);
  }
  // Safe search on: the safe ones.
  EXPECT_EQ(s.search("q=archive&decorative=show&collapse=off").size(), shown);
}

TEST_P(Locations, MovedIndexAndArchivesWorkWithRootsOrAfterRelocate) {
  const fs::path moved = work_ / "moved";
  fs::rename(site_, moved);
  const Json item = Running(options_for(moved / "index")).search("q=archive&safeSearch=off")[0];
  {
    Running s(options_for(moved / "index"));
    auto r = s.replay(item);
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, 404);
    EXPECT_NE(r->body.find("archive missing: " + (site_ / "archives").string()), std::string::npos)
        << r->body;
  }
  {
    Running s(options_for(moved / "index", {work_ / "elsewhere", moved / "archives"}));
    auto r = s.replay(item);
    ASSERT_TRUE(r);
    ASSERT_EQ(r->status, 200) << r->body;
    EXPECT_EQ(sha256_hex(r->body), item["imgDigest"]);
  }
  // Late analysis from the new place: the moved documents, the archive found under the root.
  fs::remove(moved / "index" / "analysis.jsonl");
  const Counters again =
      analyse(moved / "docs" / "documents.jsonl", moved / "index", {moved / "archives"});
  EXPECT_EQ(again.get("images"), 23) << again.to_json().dump();
  EXPECT_EQ(again.get("decode_ok"), 23);
  EXPECT_EQ(again.get("bytes_missing"), 0);
  {
    Xapian::WritableDatabase db((moved / "index").string(), Xapian::DB_OPEN);
    EXPECT_EQ(index::relocate_archives(db, site_ / "archives", moved / "archives"), 1u);
    db.commit();
  }
  Running s(options_for(moved / "index"));
  auto r = s.replay(item);
  ASSERT_TRUE(r);
  ASSERT_EQ(r->status, 200) << r->body;
  EXPECT_EQ(sha256_hex(r->body), item["imgDigest"]);
  Xapian::Database db((moved / "index").string());
  const auto entries = index::registered_archives(db);
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_EQ(entries[0].key, key_);  // documents keep their keys
  EXPECT_EQ(entries[0].path, (moved / "archives").string() + "/" +
                                 fs::path(archive::container_of(key_)).filename().string());
}

TEST_P(Locations, ChangedArchiveIsRefusedWithAClearError) {
  std::ofstream(archive::container_of(key_), std::ios::app) << "appended";
  Running s(options_for(site_ / "index"));
  const Json item = s.search("q=archive&safeSearch=off")[0];
  auto r = s.replay(item);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 409);
  EXPECT_NE(r->body.find("archive changed: size"), std::string::npos) << r->body;
}

INSTANTIATE_TEST_SUITE_P(Containers, Locations,
                         ::testing::Values(Container::wacz, Container::gzip_whole,
                                           Container::zstd_whole),
                         [](const ::testing::TestParamInfo<Container>& param) {
                           switch (param.param) {
                             case Container::wacz:
                               return std::string("wacz");
                             case Container::gzip_whole:
                               return std::string("gzip_whole");
                             case Container::zstd_whole:
                               return std::string("zstd_whole");
                           }
                           return std::string();
                         });

}  // namespace
}  // namespace strata::server
