// Round trip: records written by WarcWriter read back with the same fields, digests and
// on-disk locations.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <map>
#include <stdexcept>

#include "core/digest.hpp"
#include "archive/reader.hpp"
#include "archive/warc_writer.hpp"
#include "testing/shared_data.hpp"

namespace strata::archive {
namespace {

TEST(Base32, KnownSha1) {
  // sha1("") = da39a3ee..., base32 as in every WARC with an empty payload.
  EXPECT_EQ(sha1_warc_digest(""), "sha1:3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ");
}

TEST(WarcWriter, RoundTripThroughReader) {
  auto path = testing::scratch_dir() / "out.warc.gz";
  std::vector<WrittenRecord> written;
  std::string body = "<html><img src=a.png></html>";
  std::string http = "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=UTF-8\r\n\r\n" + body;
  {
    WarcWriter w(path);
    written.push_back(w.write_warcinfo({{"software", "strata-test"}}, "out.warc.gz"));
    written.push_back(w.write_request("http://example.com/", "20240101120000",
                                      "GET / HTTP/1.1\r\nHost: example.com\r\n\r\n"));
    written.push_back(w.write_response("http://example.com/", "20240101120000", http));
    written.push_back(w.write_resource("http://example.com/a.png", "2024-01-01T12:00:01Z",
                                       "image/png", "\x89PNG fake"));
    written.push_back(w.write_revisit("http://example.com/", "20240102120000",
                                      "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n",
                                      written[2], "http://example.com/", "20240101120000",
                                      sha1_warc_digest(body)));
  }
  ProblemLog problems;
  auto reader = ArchiveReader::open(path, {}, problems.sink());
  std::vector<RecordType> types;
  size_t i = 0;
  while (reader->next()) {
    const Record& r = reader->record();
    ASSERT_LT(i, written.size());
    types.push_back(r.type);
    EXPECT_EQ(r.version, "WARC/1.1");
    EXPECT_EQ(r.record_id, written[i].record_id);
    EXPECT_EQ(r.offset, written[i].offset);
    EXPECT_EQ(r.length, written[i].length);
    std::string block;
    if (r.type == RecordType::response) {
      EXPECT_EQ(r.date, "20240101120000");
      EXPECT_EQ(r.http.status, 200);
      EXPECT_EQ(r.http.mime, "text/html");
      EXPECT_EQ(r.http.charset, "utf-8");
      std::string payload;
      EXPECT_EQ(reader->read_payload(payload), PayloadStatus::ok);
      EXPECT_EQ(payload, body);
      EXPECT_EQ(r.payload_digest, sha1_warc_digest(body));
      EXPECT_EQ(r.block_digest, sha1_warc_digest(http));
    }
    if (r.type == RecordType::revisit) {
      EXPECT_EQ(r.refers_to, written[2].record_id);
      EXPECT_EQ(r.refers_to_target_uri, "http://example.com/");
      EXPECT_EQ(r.refers_to_date, "20240101120000");
      EXPECT_EQ(r.payload_digest, sha1_warc_digest(body));
    }
    if (r.type == RecordType::resource) {
      EXPECT_EQ(r.date, "20240101120001");
      EXPECT_EQ(reader->read_block(block, 1000), PayloadStatus::ok);
      EXPECT_EQ(block, "\x89PNG fake");
    }
    ++i;
  }
  EXPECT_EQ(types, (std::vector<RecordType>{RecordType::warcinfo, RecordType::request,
                                            RecordType::response, RecordType::resource,
                                            RecordType::revisit}));
  EXPECT_EQ(problems.total(), 0u);
  // Replay: each record can be read again from its offset.
  auto again = read_record_at(path.string(), written[3].offset, {}, problems.sink());
  ASSERT_TRUE(again);
  EXPECT_EQ(again->record().target_uri, "http://example.com/a.png");
  EXPECT_FALSE(again->next());
}

std::string slurp(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::vector<WarcRecordSpec> fixed_specs() {
  std::vector<WarcRecordSpec> specs(3);
  specs[0].type = RecordType::warcinfo;
  specs[0].record_id = "<urn:uuid:00000000-0000-4000-8000-000000000001>";
  specs[0].date = "2024-03-04T05:06:07Z";
  specs[0].block = "software: strata-test\r\n";
  specs[1].type = RecordType::response;
  specs[1].record_id = "<urn:uuid:00000000-0000-4000-8000-000000000002>";
  specs[1].date = "20240304050608";
  specs[1].target_uri = "http://example.com/";
  specs[1].block = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\n" + std::string(20000, 'x');
  specs[2].type = RecordType::resource;
  specs[2].date = "20240304050609";  // no record id: a random one
  specs[2].target_uri = "http://example.com/r";
  specs[2].block = "resource";
  return specs;
}

TEST(WarcWriter, RecordIdAndDateFromSpec) {
  auto path = testing::scratch_dir() / "ids.warc.gz";
  std::vector<WrittenRecord> written;
  {
    WarcWriter w(path);
    for (const auto& spec : fixed_specs()) written.push_back(w.write(spec));
  }
  EXPECT_EQ(written[0].record_id, "<urn:uuid:00000000-0000-4000-8000-000000000001>");
  EXPECT_EQ(written[1].record_id, "<urn:uuid:00000000-0000-4000-8000-000000000002>");
  EXPECT_TRUE(written[2].record_id.starts_with("<urn:uuid:"));
  ProblemLog problems;
  auto reader = ArchiveReader::open(path, {}, problems.sink());
  std::vector<std::string> ids, dates, raw_dates;
  while (reader->next()) {
    ids.push_back(reader->record().record_id);
    dates.push_back(reader->record().date);
    raw_dates.push_back(reader->record().date_raw);
  }
  EXPECT_EQ(ids, (std::vector<std::string>{written[0].record_id, written[1].record_id,
                                           written[2].record_id}));
  EXPECT_EQ(dates,
            (std::vector<std::string>{"20240304050607", "20240304050608", "20240304050609"}));
  EXPECT_EQ(raw_dates[0], "2024-03-04T05:06:07Z");
  EXPECT_EQ(problems.total(), 0u);
}

TEST(WarcWriter, DeterministicWithIdsAndDates) {
  auto specs = fixed_specs();
  specs.pop_back();  // the random id
  auto a = testing::scratch_dir() / "det_a.warc.gz";
  auto b = testing::scratch_dir() / "det_b.warc.gz";
  for (const auto& path : {a, b}) {
    WarcWriter w(path);
    for (const auto& spec : specs) w.write(spec);
  }
  EXPECT_EQ(slurp(a), slurp(b));
}

TEST(WarcWriter, CompressionLevel) {
  auto specs = fixed_specs();
  std::map<int, std::string> files;
  for (int level : {0, 1, 6, 9}) {
    auto path = testing::scratch_dir() / ("level" + std::to_string(level) + ".warc.gz");
    {
      WarcWriter w(path, true, level);
      EXPECT_EQ(w.compression_level(), level);
      for (const auto& spec : specs) w.write(spec);
    }
    files[level] = slurp(path);
    ProblemLog problems;
    auto reader = ArchiveReader::open(path, {}, problems.sink());
    size_t n = 0;
    while (reader->next()) {
      std::string block;
      EXPECT_EQ(reader->read_block(block, 1 << 20), PayloadStatus::ok);
      EXPECT_EQ(block, specs[n].block);
      ++n;
    }
    EXPECT_EQ(n, specs.size());
    EXPECT_EQ(problems.total(), 0u);
  }
  EXPECT_GT(files[0].size(), files[1].size());  // stored vs deflated
  EXPECT_GT(files[0].size(), 20000u);
  EXPECT_LT(files[9].size(), 2000u);
  // The setter applies to later records only; the default is 6.
  auto path = testing::scratch_dir() / "setter.warc.gz";
  WarcWriter w(path);
  EXPECT_EQ(w.compression_level(), WarcWriter::kDefaultLevel);
  EXPECT_EQ(WarcWriter::kDefaultLevel, 6);
  w.set_compression_level(0);
  auto stored = w.write(specs[1]);
  w.set_compression_level(9);
  auto best = w.write(specs[1]);
  EXPECT_GT(stored.length, best.length);
  EXPECT_THROW(w.set_compression_level(10), std::invalid_argument);
  EXPECT_THROW(WarcWriter(path, true, -2), std::invalid_argument);
  EXPECT_EQ(w.compression_level(), 9);
}

}  // namespace
}  // namespace strata::archive
