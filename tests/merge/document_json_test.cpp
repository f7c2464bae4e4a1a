#include "merge/document_json.hpp"

#include <gtest/gtest.h>

namespace strata::merge {
namespace {

std::string reference_json(const ImageDocument& doc) {
  return to_json(doc).dump(-1, ' ', false, Json::error_handler_t::replace);
}

std::string written_json(const ImageDocument& doc) {
  std::string out;
  append_document_json(doc, out);
  return out;
}

TEST(DocumentJson, EmptyDocumentMatchesNlohmann) {
  EXPECT_EQ(written_json(ImageDocument{}), reference_json(ImageDocument{}));
}

TEST(DocumentJson, EscapesAndNonAsciiMatchNlohmann) {
  ImageDocument doc;
  doc.id = "abc";
  doc.imgUrl = "http://x.pt/a\"b\\c.jpg";
  doc.pageTitle = std::string("tab\there\nnl\r\b\f\x01\x1f\x7f end");
  doc.imgAlt = {"Ol\xc3\xa1 mundo", "bad \xff\xfe utf8", "cut \xc3", ""};
  doc.imgCaption = {"\xe2\x82\xac euro", "surrogate \xed\xa0\x80"};
  doc.imgWidth = -3;
  doc.imgSize = 18446744073709551615ULL;
  doc.isInline = true;
  doc.matchingPages = -9223372036854775807LL - 1;
  doc.collection = {"C1", "C2"};
  EXPECT_EQ(written_json(doc), reference_json(doc));
  // distinctPages: written when below matchingPages only.
  doc.matchingPages = 5;
  doc.distinctPages = 2;
  EXPECT_EQ(written_json(doc), reference_json(doc));
  EXPECT_NE(written_json(doc).find("\"distinctPages\":2"), std::string::npos);
  doc.distinctPages = 5;
  EXPECT_EQ(written_json(doc).find("distinctPages"), std::string::npos);
}

// Escapes that make the JSON longer than its estimate, long values after them, and a line that
// already holds text: the writer grows its room as it goes.
TEST(DocumentJson, LongAndEscapedValuesAfterTextMatchNlohmann) {
  ImageDocument doc;
  doc.imgUrl = std::string(3000, '\x01');
  doc.imgAlt = {std::string(5000, 'a'), std::string(700, '"')};
  doc.pageTitle = std::string(9000, 'b');
  std::string out = "id\t";
  append_document_json(doc, out);
  EXPECT_EQ(out, "id\t" + reference_json(doc));
}

}  // namespace
}  // namespace strata::merge
