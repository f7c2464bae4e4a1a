// The reader reads every record into the same Record (Record::clear keeps the strings'
// storage): nothing of a record may show in the next one.
#include <gtest/gtest.h>

#include <string>

#include "archive/reader.hpp"

namespace strata::archive {
namespace {

std::string warc_record(const std::string& fields, const std::string& block) {
  return "WARC/1.0\r\n" + fields + "Content-Length: " + std::to_string(block.size()) + "\r\n\r\n" +
         block + "\r\n\r\n";
}

TEST(RecordReuse, NothingOfARecordShowsInTheNext) {
  std::string http =
      "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=ISO-8859-1\r\n\r\n<html></html>";
  std::string file =
      warc_record(
          "WARC-Type: revisit\r\nWARC-Target-URI: <http://a.example/x y.jpg>\r\n"
          "WARC-Date: 2020-01-02T03:04:05Z\r\nWARC-Record-ID: <urn:uuid:1>\r\n"
          "Content-Type: application/http; msgtype=response\r\nWARC-IP-Address: 10.0.0.1\r\n"
          "WARC-Block-Digest: sha1:AAAA\r\nWARC-Payload-Digest: sha1:BBBB\r\n"
          "WARC-Refers-To: <urn:uuid:0>\r\nWARC-Refers-To-Target-URI: http://a.example/\r\n"
          "WARC-Refers-To-Date: 2019-01-02T03:04:05Z\r\nWARC-Profile: identical\r\n"
          "WARC-Truncated: length\r\nWARC-Warcinfo-ID: <urn:uuid:w>\r\n",
          http) +
      warc_record("WARC-Type: metadata\r\nWARC-Date: 2021-01-01T00:00:00Z\r\n", "a: b\r\n");
  auto reader = ArchiveReader::open_memory(file, "reuse.warc", {}, {});
  ASSERT_TRUE(reader->next());
  const Record& first = reader->record();
  EXPECT_EQ(first.target_uri, "http://a.example/x%20y.jpg");
  EXPECT_EQ(first.refers_to_date, "20190102030405");
  EXPECT_EQ(first.http.charset, "iso-8859-1");
  ASSERT_TRUE(reader->next());
  const Record& r = reader->record();
  EXPECT_EQ(r.type, RecordType::metadata);
  EXPECT_EQ(r.date, "20210101000000");
  EXPECT_EQ(r.headers.size(), 3u);
  for (const std::string* s :
       {&r.target_uri, &r.record_id, &r.content_type, &r.ip_address, &r.block_digest,
        &r.payload_digest, &r.refers_to, &r.refers_to_target_uri, &r.refers_to_date, &r.profile,
        &r.truncated, &r.warcinfo_id, &r.http.status_line, &r.http.mime, &r.http.charset})
    EXPECT_TRUE(s->empty()) << *s;
  EXPECT_FALSE(r.http.present);
  EXPECT_EQ(r.http.status, 0);
  EXPECT_TRUE(r.http.headers.empty());
  EXPECT_EQ(r.decoded_offset, 0u);
  EXPECT_FALSE(reader->next());
}

// Extraction's reader keeps no header lines: the fields a Record names must be the same,
// also for a folded line (which makes it keep the lines of that record after all).
TEST(RecordReuse, SameFieldsWithoutTheHeaderLines) {
  std::string file =
      warc_record(
          "WARC-Type: response\r\nwarc-target-uri: http://a.example/a.png\r\n"
          "WARC-Date: 2020-01-02T03:04:05Z\r\nWARC-Payload-Digest: sha1:X\r\n",
          "HTTP/1.1 200 OK\r\nContent-Type: image/png\r\n\r\npng") +
      warc_record(
          "WARC-Type: revisit\r\nWARC-Target-URI: http://a.example/\r\n b.png\r\n"
          "WARC-Date: 2020-01-02T03:04:05Z\r\nWARC-Refers-To-Date: 2019\r\n",
          "") +
      warc_record("WARC-Type: metadata\r\nWARC-Date: 2021-01-01T00:00:00Z\r\n", "a: b\r\n");
  ReaderOptions lean;
  lean.keep_warc_headers = false;
  auto reader = ArchiveReader::open_memory(file, "lean.warc", {}, {});
  auto lean_reader = ArchiveReader::open_memory(file, "lean.warc", lean, {});
  for (int i = 0; i < 3; ++i) {
    ASSERT_TRUE(reader->next());
    ASSERT_TRUE(lean_reader->next());
    const Record& a = reader->record();
    const Record& b = lean_reader->record();
    EXPECT_EQ(a.type, b.type);
    EXPECT_EQ(a.target_uri, b.target_uri);
    EXPECT_EQ(a.date, b.date);
    EXPECT_EQ(a.payload_digest, b.payload_digest);
    EXPECT_EQ(a.refers_to_date, b.refers_to_date);
    EXPECT_EQ(a.content_length, b.content_length);
    EXPECT_EQ(a.length, b.length);
    EXPECT_EQ(a.http.mime, b.http.mime);
  }
  EXPECT_EQ(reader->record().headers.size(), 3u);
  EXPECT_TRUE(lean_reader->record().headers.empty());
  EXPECT_FALSE(lean_reader->next());
}

TEST(RecordReuse, ClearGivesAnEmptyRecord) {
  Record r;
  r.format = Format::arc;
  r.type = RecordType::response;
  r.version = r.file = r.date_raw = "x";
  r.headers = {{"a", "b"}};
  r.content_length = r.offset = r.length = r.decoded_offset = 7;
  r.http.present = true;
  r.http.status = 200;
  r.http.headers = {{"c", "d"}};
  r.clear();
  EXPECT_EQ(r.format, Format::warc);
  EXPECT_EQ(r.type, RecordType::unknown);
  EXPECT_TRUE(r.version.empty() && r.file.empty() && r.date_raw.empty() && r.headers.empty());
  EXPECT_EQ(r.content_length + r.offset + r.length + r.decoded_offset, 0u);
  EXPECT_FALSE(r.http.present);
  EXPECT_EQ(r.http.status, 0);
  EXPECT_TRUE(r.http.headers.empty());
}

}  // namespace
}  // namespace strata::archive
