// The tiny sample: generated quickly, deterministic, well-formed WARC 1.1 and truth that
// agrees with the records written.
#include <gtest/gtest.h>
#include <zlib.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "core/digest.hpp"
#include "sample/sample.hpp"
#include "testing/shared_data.hpp"
#include "tiny.hpp"

namespace strata::sample {
namespace {

namespace fs = std::filesystem;

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// Splits a per-record gzip file into its decompressed members.
std::vector<std::string> members(const std::string& gz) {
  std::vector<std::string> out;
  size_t pos = 0;
  while (pos < gz.size()) {
    z_stream z{};
    inflateInit2(&z, 31);
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(gz.data() + pos));
    z.avail_in = static_cast<uInt>(gz.size() - pos);
    std::string rec;
    char buf[65536];
    int rc;
    do {
      z.next_out = reinterpret_cast<Bytef*>(buf);
      z.avail_out = sizeof buf;
      rc = inflate(&z, Z_NO_FLUSH);
      rec.append(buf, sizeof buf - z.avail_out);
    } while (rc == Z_OK);
    EXPECT_EQ(rc, Z_STREAM_END);
    pos += z.total_in;
    inflateEnd(&z);
    out.push_back(rec);
    if (rc != Z_STREAM_END) break;
  }
  return out;
}

std::string header(const std::string& rec, const std::string& name) {
  size_t p = rec.find("\r\n" + name + ": ");
  if (p == std::string::npos) return "";
  p += name.size() + 4;
  return rec.substr(p, rec.find("\r\n", p) - p);
}

std::string block(const std::string& rec) {
  size_t p = rec.find("\r\n\r\n") + 4;
  return rec.substr(p, std::stoull(header(rec, "Content-Length")));
}

TEST(Sample, TinyIsSmallAndFast) {
  const Tiny& t = tiny();
  EXPECT_LT(t.summary.seconds, 2.0);
  EXPECT_GE(t.summary.documents, 15u);
  EXPECT_LE(t.summary.documents, 120u);
  EXPECT_GE(t.summary.files.size(), 6u);  // 3 crawls x (main + late)
  for (const auto& f : t.summary.files) EXPECT_TRUE(fs::exists(t.dir / f)) << f;
}

TEST(Sample, RecordsFollowCrawlerOrderAndDigestsHold) {
  const Tiny& t = tiny();
  int revisits = 0, responses = 0, lookups = 0;
  for (const auto& f : t.summary.files) {
    auto recs = members(slurp(t.dir / f));
    ASSERT_FALSE(recs.empty());
    EXPECT_EQ(header(recs[0], "WARC-Type"), "warcinfo");
    for (size_t i = 0; i < recs.size(); ++i) {
      const std::string& r = recs[i];
      EXPECT_EQ(r.rfind("WARC/1.", 0), 0u);
      std::string type = header(r, "WARC-Type");
      if (type == "request") {  // crawlers write the request after its response
        ASSERT_GT(i, 0u);
        const std::string& prev = recs[i - 1];
        EXPECT_EQ(header(r, "WARC-Concurrent-To"), header(prev, "WARC-Record-ID")) << f << " " << i;
        EXPECT_EQ(header(prev, "WARC-Target-URI"), header(r, "WARC-Target-URI"));
      }
      if (type == "response" && header(r, "Content-Type") == "text/dns") ++lookups;
      if (type == "response" && header(r, "Content-Type") != "text/dns") {
        ++responses;
        std::string b = block(r);
        std::string payload = b.substr(b.find("\r\n\r\n") + 4);
        std::string digest = header(r, "WARC-Payload-Digest");
        EXPECT_TRUE(digest == sha1_warc_digest(payload) ||
                    digest == "sha256:" + sha256_hex(payload))
            << digest;
      }
      if (type == "revisit") {
        ++revisits;
        EXPECT_NE(header(r, "WARC-Profile").find("identical-payload-digest"), std::string::npos);
        EXPECT_FALSE(header(r, "WARC-Refers-To-Target-URI").empty());
        EXPECT_FALSE(header(r, "WARC-Refers-To-Date").empty());
        EXPECT_FALSE(header(r, "WARC-Payload-Digest").empty());
      }
    }
  }
  EXPECT_GT(responses, 20);
  EXPECT_GT(revisits, 5);
  EXPECT_GT(lookups, 2);  // Heritrix's dns: records
}

TEST(Sample, TruthDocumentsPointAtTheirRecords) {
  const Tiny& t = tiny();
  std::ifstream in(t.dir / "truth" / "documents.jsonl");
  std::string line;
  int n = 0;
  while (std::getline(in, line)) {
    merge::ImageDocument d;
    ASSERT_TRUE(merge::from_json(Json::parse(line), d));
    ++n;
    std::string file = slurp(t.dir / d.imgFile);
    ASSERT_LE(d.imgOffset + d.imgLength, file.size());
    auto recs = members(file.substr(d.imgOffset, d.imgLength));
    ASSERT_EQ(recs.size(), 1u);
    EXPECT_EQ(header(recs[0], "WARC-Target-URI"), d.imgUrl);
    std::string b = block(recs[0]);
    std::string payload = b.substr(b.find("\r\n\r\n") + 4);
    EXPECT_EQ(payload.size(), d.imgSize);
    EXPECT_GE(d.imgWidth, 50);
    EXPECT_GE(d.imgHeight, 50);
    EXPECT_GE(d.matchingPages, 1);
    EXPECT_GE(d.matchingImages, static_cast<int64_t>(d.imgCaptureTimes.size()));
    EXPECT_EQ(d.imgCrawlTimestamp, d.imgCaptureTimes.front());
  }
  EXPECT_EQ(static_cast<size_t>(n), t.summary.documents);
}

TEST(Sample, SameSeedSameBytes) {
  const Tiny& t = tiny();
  fs::path other = testing::scratch_dir();
  Options o;
  apply_scale("tiny", o);
  o.seed = 7;
  Summary s = generate(o, other.string(), 1);  // another thread count, same output
  ASSERT_EQ(s.files, t.summary.files);
  for (const char* f : {"documents.jsonl", "queries.jsonl", "near-duplicates.jsonl"}) {
    EXPECT_EQ(slurp(other / "truth" / f), slurp(t.dir / "truth" / f)) << f;
  }
  for (const auto& f : s.files) EXPECT_EQ(slurp(other / f), slurp(t.dir / f)) << f;
}

// The cases the issue names: an ICO document typed as extraction sniffs it (image/x-icon, the
// contract of docs/extraction.md) though served as image/vnd.microsoft.icon, and a capture
// over 15000x15000 px that extraction must drop as too large.
TEST(Sample, TruthHoldsTheIcoAndTooLargeCases) {
  const Tiny& t = tiny();
  std::ifstream in(t.dir / "truth" / "documents.jsonl");
  int icons = 0;
  for (std::string line; std::getline(in, line);) {
    Json d = Json::parse(line);
    if (d["imgMimeType"] != "image/x-icon") continue;
    ++icons;
    EXPECT_EQ(d["imgMimeTypeReported"], "image/vnd.microsoft.icon");
  }
  EXPECT_GE(icons, 1);
  Json manifest = Json::parse(slurp(t.dir / "truth" / "manifest.json"));
  EXPECT_GE(manifest["imagesTooLarge"].get<int64_t>(), 1);
}

TEST(Sample, TruthHasQueriesAndNearDuplicates) {
  const Tiny& t = tiny();
  EXPECT_FALSE(slurp(t.dir / "truth" / "queries.jsonl").empty());
  EXPECT_FALSE(slurp(t.dir / "truth" / "near-duplicates.jsonl").empty());
}

}  // namespace
}  // namespace strata::sample
