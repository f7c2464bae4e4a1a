#include <gtest/gtest.h>

#include "cdx/cdxj.hpp"

using strata::archive::Record;
using strata::archive::RecordType;

namespace {

Record response() {
  Record r;
  r.type = RecordType::response;
  r.target_uri = "http://www.iana.org/";
  r.date = "20140126200624";
  r.payload_digest = "sha1:OSSAPWJ23L56IYVRW3GFEAR4MCJMGPTB";
  r.offset = 334;
  r.length = 2258;
  r.http.present = true;
  r.http.status = 200;
  r.http.headers = {{"Content-Type", "text/html; charset=UTF-8"}};
  r.http.mime = "text/html";
  return r;
}

}  // namespace

// The first line of pywb's sample_archive/cdxj/iana.cdxj, rebuilt from its record.
TEST(Cdxj, ResponseLineMatchesPywb) {
  EXPECT_EQ(strata::cdx::cdxj_line(response(), "iana.warc.gz"),
            "org,iana)/ 20140126200624 {\"url\": \"http://www.iana.org/\", \"mime\": "
            "\"text/html\", \"status\": \"200\", \"digest\": "
            "\"OSSAPWJ23L56IYVRW3GFEAR4MCJMGPTB\", \"length\": \"2258\", \"offset\": \"334\", "
            "\"filename\": \"iana.warc.gz\"}");
}

TEST(Cdxj, RevisitWithoutHttpHead) {
  Record r = response();
  r.type = RecordType::revisit;
  r.target_uri = "http://www.iana.org/_css/2013.1/fonts/Inconsolata.otf";
  r.http = {};
  r.date = "20140126200912";
  r.payload_digest = "sha1:LNMEDYOENSOEI5VPADCKL3CB6N3GWXPR";
  r.length = 546;
  r.offset = 667073;
  EXPECT_EQ(strata::cdx::cdxj_line(r, "iana.warc.gz"),
            "org,iana)/_css/2013.1/fonts/inconsolata.otf 20140126200912 {\"url\": "
            "\"http://www.iana.org/_css/2013.1/fonts/Inconsolata.otf\", \"mime\": "
            "\"warc/revisit\", \"digest\": \"LNMEDYOENSOEI5VPADCKL3CB6N3GWXPR\", \"length\": "
            "\"546\", \"offset\": \"667073\", \"filename\": \"iana.warc.gz\"}");
}

TEST(Cdxj, RevisitWithHttpHeadKeepsStatus) {
  Record r = response();
  r.type = RecordType::revisit;
  EXPECT_NE(strata::cdx::cdxj_line(r, "a.warc")
                .find("\"mime\": \"warc/revisit\", \"status\": "
                      "\"200\""),
            std::string::npos);
}

TEST(Cdxj, RecordSelection) {
  Record r = response();
  EXPECT_TRUE(strata::cdx::indexed(r));
  r.type = RecordType::request;
  EXPECT_FALSE(strata::cdx::indexed(r));
  r.type = RecordType::warcinfo;
  EXPECT_FALSE(strata::cdx::indexed(r));
  r.type = RecordType::resource;
  r.content_type = "image/png";
  EXPECT_TRUE(strata::cdx::indexed(r));
  r.type = RecordType::metadata;
  r.content_type = "application/warc-fields";
  EXPECT_FALSE(strata::cdx::indexed(r));
  r.content_type = "application/json";
  EXPECT_TRUE(strata::cdx::indexed(r));
}

TEST(Cdxj, MimeField) {
  Record r = response();
  r.http.headers = {{"content-type", "Text/HTML;charset=utf-8"}};
  EXPECT_EQ(strata::cdx::mime_field(r), "Text/HTML");  // case kept, as cdxj-indexer does
  r.type = RecordType::resource;
  r.content_type = "text/dns";
  EXPECT_EQ(strata::cdx::mime_field(r), "text/dns");
  r.type = RecordType::response;
  r.http.headers.clear();
  EXPECT_EQ(strata::cdx::mime_field(r), "");
}

TEST(Cdxj, MissingFieldsAreLeftOut) {
  Record r;
  r.type = RecordType::resource;
  r.target_uri = "";
  r.date = "20200101000000";
  EXPECT_EQ(strata::cdx::cdxj_line(r, "x.warc"),
            "- 20200101000000 {\"length\": \"0\", \"offset\": \"0\", \"filename\": \"x.warc\"}");
}

TEST(Cdxj, PythonJsonEscaping) {
  using strata::cdx::python_json_string;
  EXPECT_EQ(python_json_string("a\"b\\c"), "\"a\\\"b\\\\c\"");
  EXPECT_EQ(python_json_string("ção"), "\"\\u00e7\\u00e3o\"");
  EXPECT_EQ(python_json_string("\x01\n"), "\"\\u0001\\n\"");
  EXPECT_EQ(python_json_string("😀"), "\"\\ud83d\\ude00\"");
  EXPECT_EQ(python_json_string("\xE9"), "\"\\u00e9\"");  // invalid UTF-8 read as Latin-1
}

TEST(Cdxj, SortAndDedupe) {
  std::vector<std::string> lines = {"b 1 {}", "a 2 {}", "b 1 {}", "a 1 {}"};
  strata::cdx::sort_lines(lines);
  EXPECT_EQ(lines, (std::vector<std::string>{"a 1 {}", "a 2 {}", "b 1 {}"}));
}
