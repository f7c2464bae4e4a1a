// Round trip: records written by WarcWriter read back with the same fields, digests and
// on-disk locations.
#include <gtest/gtest.h>

#include "archive/digest.hpp"
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

}  // namespace
}  // namespace strata::archive
