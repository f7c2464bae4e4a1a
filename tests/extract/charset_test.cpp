#include "extract/charset.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "archive/reader.hpp"
#include "testing/shared_data.hpp"

namespace strata::extract {
namespace {

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

struct EncodingCase {
  std::string data, encoding;
};

// html5lib tests format: "#data\n<bytes>\n#encoding\n<name>\n" repeated.
std::vector<EncodingCase> read_encoding_dat(const std::filesystem::path& path) {
  std::string text = read_file(path);
  std::vector<EncodingCase> cases;
  size_t pos = 0;
  while ((pos = text.find("#data\n", pos)) != std::string::npos) {
    size_t data_start = pos + 6;
    size_t enc_marker = text.find("\n#encoding\n", data_start);
    if (enc_marker == std::string::npos) break;
    size_t enc_start = enc_marker + 11;
    size_t enc_end = text.find('\n', enc_start);
    cases.push_back({text.substr(data_start, enc_marker - data_start),
                     text.substr(enc_start, enc_end - enc_start)});
    pos = enc_end == std::string::npos ? text.size() : enc_end;
  }
  return cases;
}

TEST(CharsetHtml5lib, AllEncodingDatCases) {
  STRATA_REQUIRE_SHARED();
  size_t total = 0;
  for (const char* file : {"tests1.dat", "tests2.dat", "test-yahoo-jp.dat"}) {
    auto cases = read_encoding_dat(testing::peer_tests("html5lib__html5lib-tests/encoding") / file);
    ASSERT_FALSE(cases.empty()) << file;
    for (size_t i = 0; i < cases.size(); ++i) {
      SCOPED_TRACE(std::string(file) + " case " + std::to_string(i) + ": " +
                   cases[i].data.substr(0, 80));
      DecodedText decoded = decode_html(cases[i].data, "");
      EXPECT_EQ(lower(decoded.encoding), lower(cases[i].encoding));
      ++total;
    }
  }
  EXPECT_EQ(total, 82u);  // 59 + 22 + 1
}

TEST(CharsetPrescan, OnlyTheFirst1024BytesAndThenTheWholePage) {
  std::string late = std::string(2000, ' ') + "<meta charset=\"shift_jis\">";
  EXPECT_EQ(prescan_meta_charset(late), "");
  EXPECT_EQ(prescan_meta_charset(late, late.size()), "Shift_JIS");
  EXPECT_EQ(decode_html(late, "").source, "meta");
  EXPECT_EQ(prescan_meta_charset("<!-- <meta charset=utf-8> --><meta charset=koi8-r>"), "KOI8-R");
  EXPECT_EQ(
      prescan_meta_charset("<meta http-equiv=content-type content='text/html;charset=latin1'>"),
      "windows-1252");
  EXPECT_EQ(prescan_meta_charset("<meta content='text/html;charset=latin2'>"), "");  // no pragma
  EXPECT_EQ(prescan_meta_charset("<meta charset=x-user-defined>"), "windows-1252");
}

TEST(CharsetLabels, WhatwgMapping) {
  EXPECT_EQ(encoding_for_label(" Latin1 "), "windows-1252");
  EXPECT_EQ(encoding_for_label("US-ASCII"), "windows-1252");
  EXPECT_EQ(encoding_for_label("iso-8859-1"), "windows-1252");
  EXPECT_EQ(encoding_for_label("iso-8859-9"), "windows-1254");
  EXPECT_EQ(encoding_for_label("gb2312"), "GBK");
  EXPECT_EQ(encoding_for_label("sjis"), "Shift_JIS");
  EXPECT_EQ(encoding_for_label("utf8"), "UTF-8");
  EXPECT_EQ(encoding_for_label("iso-8559-1"), "");
  EXPECT_EQ(charset_from_content_type("text/html; Charset=\"ISO-8859-1\""), "ISO-8859-1");
  EXPECT_EQ(charset_from_content_type("text/html"), "");
  EXPECT_EQ(charset_from_content_type("utf-8"), "utf-8");
}

TEST(CharsetDecode, OrderOfSources) {
  DecodedText bom = decode_html("\xEF\xBB\xBF<p>caf\xC3\xA9", "iso-8859-1");
  EXPECT_EQ(bom.source, "bom");
  EXPECT_EQ(bom.utf8, "<p>caf\xC3\xA9");
  DecodedText utf16 = decode_html(std::string("\xFF\xFE<\0p\0>\0\xE9\0", 10), "");
  EXPECT_EQ(utf16.encoding, "UTF-16LE");
  EXPECT_EQ(utf16.utf8, "<p>\xC3\xA9");

  DecodedText http = decode_html("<meta charset=utf-8><p>caf\xE9", "text/html; charset=ISO-8859-1");
  EXPECT_EQ(http.source, "http");
  EXPECT_EQ(http.encoding, "windows-1252");
  EXPECT_EQ(http.utf8, "<meta charset=utf-8><p>caf\xC3\xA9");

  DecodedText cp1252 = decode_html("<p>\x93quoted\x94 \x80 5", "latin1");
  EXPECT_EQ(cp1252.utf8, "<p>\xE2\x80\x9Cquoted\xE2\x80\x9D \xE2\x82\xAC 5");

  DecodedText meta = decode_html("<meta charset=\"iso-8859-2\"><p>\xB1", "");
  EXPECT_EQ(meta.source, "meta");
  EXPECT_EQ(meta.utf8, "<meta charset=\"iso-8859-2\"><p>\xC4\x85");  // a with ogonek

  DecodedText plain = decode_html("<p>hello</p>", "");
  EXPECT_EQ(plain.source, "default");
  EXPECT_EQ(plain.encoding, "windows-1252");
  EXPECT_FALSE(plain.has_replacement_chars);
}

TEST(CharsetDecode, ImpossibleUtf8DeclarationFallsBackToDetection) {
  std::string latin1 =
      "<html><head><meta charset=utf-8></head><body><p>Os portugueses s\xE3o conhecidos pela "
      "sua hospitalidade e pela gastronomia. A popula\xE7\xE3o da regi\xE3o \xE9 de cerca de "
      "dez milh\xF5"
      "es de habitantes, e a capital \xE9 Lisboa.</p></body></html>";
  DecodedText decoded = decode_html(latin1, "text/html; charset=utf-8");
  EXPECT_EQ(decoded.source, "detected");
  EXPECT_NE(decoded.encoding, "UTF-8");
  EXPECT_NE(decoded.utf8.find("popula\xC3\xA7\xC3\xA3o"), std::string::npos) << decoded.encoding;
  EXPECT_FALSE(decoded.has_replacement_chars);
}

TEST(CharsetDecode, DetectsShiftJis) {
  // "日本語のテキストです。" repeated, in Shift_JIS, with no declaration.
  std::string sjis;
  for (int i = 0; i < 20; ++i)
    sjis +=
        "\x93\xFA\x96\x7B\x8C\xEA\x82\xCC\x83\x65\x83\x4C\x83\x58\x83\x67\x82\xC5\x82\xB7\x81\x42";
  DecodedText decoded = decode_html("<p>" + sjis + "</p>", "");
  EXPECT_EQ(decoded.source, "detected");
  EXPECT_EQ(decoded.encoding, "Shift_JIS");
  EXPECT_EQ(decoded.utf8.substr(3, 9), "\xE6\x97\xA5\xE6\x9C\xAC\xE8\xAA\x9E");  // 日本語
}

TEST(CharsetMojibake, RepairsSingleAndDoubleEncoding) {
  std::string once =
      "Informa\xC3\x83\xC2\xA7\xC3\x83\xC2\xA3o e caf\xC3\x83\xC2\xA9 "
      "\xC3\xA2\xE2\x82\xAC\xE2\x84\xA2";
  EXPECT_TRUE(has_arquivo_mojibake_pattern(once));
  EXPECT_TRUE(looks_mis_encoded(once));
  std::string fixed = once;
  EXPECT_EQ(repair_mojibake(fixed), 1);
  EXPECT_EQ(fixed, "Informa\xC3\xA7\xC3\xA3o e caf\xC3\xA9 \xE2\x80\x99");
  EXPECT_FALSE(looks_mis_encoded(fixed));

  std::string twice = "caf\xC3\x83\xC6\x92\xC3\x82\xC2\xA9";  // "cafÃƒÂ©"
  EXPECT_EQ(repair_mojibake(twice), 2);
  EXPECT_EQ(twice, "caf\xC3\xA9");

  std::string clean = "Jo\xC3\xA3o \xC3\x89vora NA\xC3\x83O";  // João Évora NAÃO: genuine
  std::string copy = clean;
  EXPECT_EQ(repair_mojibake(copy), 0);
  EXPECT_EQ(copy, clean);
  EXPECT_FALSE(looks_mis_encoded(clean));
  EXPECT_TRUE(looks_mis_encoded("bad \xEF\xBF\xBD byte"));
}

TEST(CharsetMojibake, DecodeHtmlRepairsUtf8ReadAsLatin1) {
  // UTF-8 bytes of "é", declared as ISO-8859-1 by the server: decoded to "Ã©", then repaired.
  DecodedText decoded = decode_html("<p>S\xC3\xA3o Jo\xC3\xA3o, caf\xC3\xA9</p>", "iso-8859-1");
  EXPECT_EQ(decoded.encoding, "windows-1252");
  EXPECT_TRUE(decoded.repaired_mojibake);
  EXPECT_EQ(decoded.utf8, "<p>S\xC3\xA3o Jo\xC3\xA3o, caf\xC3\xA9</p>");
}

TEST(CharsetMalformed, NeverCrashes) {
  std::string junk;
  for (int i = 0; i < 512; ++i) junk.push_back(static_cast<char>((i * 7919) & 0xFF));
  for (size_t n = 0; n <= junk.size(); n += 3) (void)decode_html(junk.substr(0, n), "utf-16");
  for (const char* label : {"", "utf-8", "replacement", "x-user-defined", "euc-jp", "nonsense"})
    (void)decode_html(junk, label);
  SUCCEED();
}

// First text/html response payload of an archive, with its HTTP charset.
struct Page {
  std::string body, charset;
};
std::optional<Page> first_html(const std::filesystem::path& path) {
  auto reader = archive::ArchiveReader::open(path, {}, [](const Problem&) {});
  while (reader && reader->next()) {
    const auto& record = reader->record();
    if (record.http.mime != "text/html") continue;
    Page page;
    page.charset = record.http.charset;
    reader->read_payload(page.body);
    if (!page.body.empty()) return page;
  }
  return std::nullopt;
}

TEST(CharsetRealPages, SmallWarcs) {
  STRATA_REQUIRE_SHARED();
  struct Expect {
    const char* file;
    const char* encoding;
    const char* source;
  };
  const Expect cases[] = {
      {"internetarchive__CDX-Writer/tests/small_warcs/alexa_charset_in_header.arc.gz",
       "windows-1252", "http"},
      {"internetarchive__CDX-Writer/tests/small_warcs/meta_tag_FI.arc.gz", "UTF-8", "http"},
      {"internetarchive__CDX-Writer/tests/small_warcs/meta_tag_I.arc.gz", "UTF-8", "meta"},
      {"internetarchive__CDX-Writer/tests/small_warcs/chardet_failure_url.arc.gz", "GBK", "http"},
  };
  for (const Expect& c : cases) {
    SCOPED_TRACE(c.file);
    auto page = first_html(testing::shared_data(std::string("archives/") + c.file));
    ASSERT_TRUE(page.has_value());
    DecodedText decoded = decode_html(page->body, page->charset);
    EXPECT_EQ(decoded.encoding, c.encoding);
    EXPECT_EQ(decoded.source, c.source);
    EXPECT_FALSE(decoded.utf8.empty());
    EXPECT_TRUE(is_valid_utf8(decoded.utf8));
  }
}

TEST(CharsetRealPages, BrokenMetaFallsBackToDetection) {
  STRATA_REQUIRE_SHARED();
  // <meta http-equiv="Content Type" content="...charset=iso-8559-1">: no pragma, bad label.
  auto page = first_html(testing::shared_data(
      "archives/openzim__warc2zim/tests/data-special/qsl.net-encoding-alias.warc.gz"));
  ASSERT_TRUE(page.has_value());
  EXPECT_EQ(prescan_meta_charset(page->body), "");
  DecodedText decoded = decode_html(page->body, page->charset);
  EXPECT_NE(decoded.source, "meta");
  EXPECT_TRUE(is_valid_utf8(decoded.utf8));
}

}  // namespace
}  // namespace strata::extract
