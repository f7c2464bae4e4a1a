// Generated WARCs read by Strata's reader without a single problem, and shaped like the real
// Heritrix and Browsertrix files in shared/data/archives: the same WARC header names in the
// same order per record type, the same HTTP Content-Types, digest forms and record sequences,
// requests tied to their response by WARC-Concurrent-To. The real files are read with the
// same code, so the comparison is against real data, not against a copy of it.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "archive/reader.hpp"
#include "testing/shared_data.hpp"
#include "tiny.hpp"

namespace strata::sample {
namespace {

namespace fs = std::filesystem;

struct Rec {
  std::string type;
  std::vector<std::string> names;  // WARC header names in order
  std::map<std::string, std::string> values;
  std::string block;  // warcinfo only
};

struct WarcFile {
  std::string software;  // warcinfo "software:" field
  std::vector<Rec> records;
};

WarcFile read_warc(const fs::path& path) {
  ProblemLog log;  // real test files may hold problems of their own: not checked here
  WarcFile file;
  auto reader = archive::ArchiveReader::open(path, {}, log.sink());
  while (reader->next()) {
    const archive::Record& r = reader->record();
    Rec rec{r.type_name, {}, {}, {}};
    for (const auto& [name, value] : r.headers) {
      rec.names.push_back(name);
      rec.values[name] = value;
    }
    if (r.type == archive::RecordType::warcinfo) {
      reader->read_block(rec.block, 1 << 16);
      size_t p = rec.block.find("software: ");
      if (file.software.empty() && p != std::string::npos)
        file.software = rec.block.substr(p + 10, rec.block.find('\r', p) - p - 10);
    }
    file.records.push_back(std::move(rec));
  }
  return file;
}

std::string crawler_of(const WarcFile& f) {
  if (f.software.rfind("Heritrix", 0) == 0) return "heritrix";
  if (f.software.rfind("Browsertrix", 0) == 0) return "browsertrix";
  return "";
}

// "sha1:base32/32" or "sha256:hex/64": the form of a digest, not its value.
std::string digest_form(const std::string& digest) {
  size_t colon = digest.find(':');
  std::string v = digest.substr(colon + 1);
  bool hex = v.find_first_not_of("0123456789abcdef") == std::string::npos;
  bool base32 = v.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567") == std::string::npos;
  return digest.substr(0, colon) + ":" +
         (hex      ? "hex"
          : base32 ? "base32"
                   : "other") +
         "/" + std::to_string(v.size());
}

bool is_http(const Rec& r) {
  auto it = r.values.find("Content-Type");
  return it != r.values.end() && it->second.rfind("application/http", 0) == 0;
}

// A DNS lookup as Heritrix records it: a response for `dns:HOST` of type text/dns.
bool is_dns(const Rec& r) {
  auto it = r.values.find("Content-Type");
  return r.type == "response" && it != r.values.end() && it->second == "text/dns";
}

std::string host_of(const Rec& r) {
  const std::string& uri = r.values.at("WARC-Target-URI");
  if (uri.rfind("dns:", 0) == 0) return uri.substr(4);
  size_t p = uri.find("://") + 3;
  return uri.substr(p, uri.find_first_of(":/", p) - p);
}

// What a crawler's files look like, summarised so generated files can be checked against it.
struct Shape {
  std::map<std::string, std::set<std::vector<std::string>>> names;  // type -> header orders
  std::set<std::string> content_types;                              // of HTTP records
  std::set<std::string> digest_forms;                               // payload and block
  std::set<std::pair<std::string, std::string>> sequences;          // type bigrams
};

// Revisits stand where a response would: compared as one, without their own fields.
Rec as_response(const Rec& r) {
  static const std::set<std::string> kRevisitOnly = {"WARC-Profile", "WARC-Truncated",
                                                     "WARC-Refers-To", "WARC-Refers-To-Target-URI",
                                                     "WARC-Refers-To-Date"};
  if (r.type != "revisit") return r;
  Rec out = r;
  out.names.clear();
  for (const auto& n : r.names)
    if (!kRevisitOnly.count(n)) out.names.push_back(n);
  out.type = "response";
  return out;
}

void add_to_shape(Shape& s, const WarcFile& f) {
  std::string prev;
  for (const Rec& raw : f.records) {
    Rec r = as_response(raw);
    if (r.type == "warcinfo" || r.type == "metadata" || is_http(r)) s.names[r.type].insert(r.names);
    if (is_dns(r)) s.names["dns"].insert(r.names);
    if (is_http(r)) s.content_types.insert(r.values["Content-Type"]);
    for (const char* d : {"WARC-Payload-Digest", "WARC-Block-Digest"})
      if (is_http(r) && r.values.count(d)) s.digest_forms.insert(digest_form(r.values[d]));
    if (!prev.empty()) s.sequences.emplace(prev, r.type);
    prev = r.type;
  }
}

// Every request/metadata record names the response (or revisit) it follows.
void expect_concurrent_records_follow_their_response(const WarcFile& f, const std::string& what) {
  const Rec* response = nullptr;
  for (const Rec& r : f.records) {
    if (r.type == "response" || r.type == "revisit") response = &r;
    if (r.type != "request" && r.type != "metadata") continue;
    ASSERT_NE(response, nullptr) << what;
    EXPECT_EQ(r.values.at("WARC-Concurrent-To"), response->values.at("WARC-Record-ID")) << what;
    EXPECT_EQ(r.values.at("WARC-Target-URI"), response->values.at("WARC-Target-URI")) << what;
  }
}

// The real files each crawler is compared with (shared/data/archives/INVENTORY.md).
const std::map<std::string, std::vector<std::string>>& references() {
  static const std::map<std::string, std::vector<std::string>> refs = {
      {"heritrix",
       {"archives/internetarchive__CDX-Writer/tests/small_warcs/invalid_location.warc.gz",
        "archives/archivesunleashed__aut/src/test/resources/warc/example.warc.gz"}},
      {"browsertrix", {"archives/openzim__warc2zim/tests/data/solidaritenum.warc.gz"}},
  };
  return refs;
}

std::map<std::string, std::vector<WarcFile>> generated_by_crawler() {
  std::map<std::string, std::vector<WarcFile>> out;
  for (const auto& name : tiny().summary.files) {
    WarcFile f = read_warc(tiny().dir / name);
    out[crawler_of(f)].push_back(std::move(f));
  }
  return out;
}

TEST(CrawlerFaithful, ReaderFindsNoProblemInGeneratedFiles) {
  size_t records = 0;
  for (const auto& name : tiny().summary.files) {
    ProblemLog log;
    auto reader = archive::ArchiveReader::open(tiny().dir / name, {}, log.sink());
    while (reader->next()) {
      const archive::Record& r = reader->record();
      ++records;
      EXPECT_EQ(r.decoded_offset, 0u) << name << ": every record is its own gzip member";
      if (r.type == archive::RecordType::response && r.header("Content-Type") != "text/dns") {
        std::string payload;
        EXPECT_EQ(reader->read_payload(payload), archive::PayloadStatus::ok) << name;
        EXPECT_TRUE(r.http.present);
        EXPECT_EQ(r.http.status, 200);
      }
    }
    EXPECT_EQ(log.total(), 0u) << name << "\n" << problem_report(log);
  }
  EXPECT_EQ(records, tiny().summary.records);
}

TEST(CrawlerFaithful, GeneratedFilesComeFromBothCrawlers) {
  auto generated = generated_by_crawler();
  EXPECT_EQ(generated.count(""), 0u) << "a file without a known crawler in its warcinfo";
  EXPECT_GE(generated["heritrix"].size(), 2u);
  EXPECT_GE(generated["browsertrix"].size(), 2u);
}

TEST(CrawlerFaithful, RealFilesHaveTheShapeTheComparisonAssumes) {
  STRATA_REQUIRE_SHARED();
  for (const auto& [crawler, files] : references())
    for (const auto& rel : files) {
      WarcFile f = read_warc(testing::shared_data(rel));
      EXPECT_EQ(crawler_of(f), crawler) << rel << ": " << f.software;
      ASSERT_FALSE(f.records.empty()) << rel;
      EXPECT_EQ(f.records.front().type, "warcinfo") << rel;
      expect_concurrent_records_follow_their_response(f, rel);
    }
}

TEST(CrawlerFaithful, GeneratedRecordsMatchRealCrawlerRecords) {
  STRATA_REQUIRE_SHARED();
  auto generated = generated_by_crawler();
  for (const auto& [crawler, files] : references()) {
    Shape real, ours;
    for (const auto& rel : files) add_to_shape(real, read_warc(testing::shared_data(rel)));
    for (const WarcFile& f : generated[crawler]) {
      ASSERT_FALSE(f.records.empty());
      EXPECT_EQ(f.records.front().type, "warcinfo");
      expect_concurrent_records_follow_their_response(f, crawler);
      add_to_shape(ours, f);
    }
    for (const auto& [type, orders] : ours.names)
      for (const auto& order : orders)
        EXPECT_TRUE(real.names[type].count(order))
            << crawler << " " << type
            << " header order not seen in real files: " << ::testing::PrintToString(order);
    for (const char* type : {"warcinfo", "response", "request", "metadata", "dns"})
      EXPECT_EQ(ours.names.count(type), real.names.count(type)) << crawler << " " << type;
    for (const auto& ct : ours.content_types)
      EXPECT_TRUE(real.content_types.count(ct)) << crawler << " Content-Type " << ct;
    for (const auto& form : ours.digest_forms)
      EXPECT_TRUE(real.digest_forms.count(form)) << crawler << " digest form " << form;
    EXPECT_FALSE(ours.digest_forms.empty());
    for (const auto& seq : ours.sequences)
      EXPECT_TRUE(real.sequences.count(seq))
          << crawler << " writes " << seq.first << " then " << seq.second;
  }
}

// Heritrix resolves every host (a dns: record) before its first fetch from it in a crawl: in
// the real file the first record after warcinfo is one; in ours, every fetched host of a
// crawl is resolved once, in the file of its first fetch and before it.
TEST(CrawlerFaithful, HeritrixResolvesEachHostBeforeItsFirstFetch) {
  STRATA_REQUIRE_SHARED();
  WarcFile real = read_warc(testing::shared_data(references().at("heritrix").back()));
  ASSERT_GE(real.records.size(), 2u);
  EXPECT_TRUE(is_dns(real.records[1]));
  std::map<std::string, std::set<std::string>> resolved, fetched;  // per collection
  for (const auto& name : tiny().summary.files) {
    WarcFile f = read_warc(tiny().dir / name);
    if (crawler_of(f) != "heritrix") continue;
    std::string collection = fs::path(name).parent_path().string();
    for (const Rec& r : f.records) {
      if (is_dns(r)) {
        EXPECT_TRUE(resolved[collection].insert(host_of(r)).second) << name << " " << host_of(r);
        EXPECT_FALSE(fetched[collection].count(host_of(r))) << name << " resolved after a fetch";
      } else if (is_http(r)) {
        fetched[collection].insert(host_of(r));
      }
    }
  }
  EXPECT_FALSE(resolved.empty());
  EXPECT_EQ(resolved, fetched);
}

TEST(CrawlerFaithful, RevisitsReferToAnEarlierCaptureOfTheSameUrl) {
  size_t revisits = 0;
  for (const auto& [crawler, files] : generated_by_crawler())
    for (const WarcFile& f : files)
      for (const Rec& r : f.records) {
        if (r.type != "revisit") continue;
        ++revisits;
        auto v = r.values;
        EXPECT_NE(v["WARC-Profile"].find("/revisit/identical-payload-digest"), std::string::npos);
        EXPECT_EQ(v["WARC-Refers-To-Target-URI"], v["WARC-Target-URI"]);
        EXPECT_LT(v["WARC-Refers-To-Date"], v["WARC-Date"]);
        EXPECT_FALSE(v["WARC-Payload-Digest"].empty());
        EXPECT_EQ(v["Content-Type"], "application/http; msgtype=response");
      }
  EXPECT_GT(revisits, 5u);
}

}  // namespace
}  // namespace strata::sample
