#include <gtest/gtest.h>

#include <string>

#include "extract/records.hpp"

namespace strata::extract {
namespace {

template <typename Record>
std::string dumped(const Record& r) {
  return to_json(r).dump(-1, ' ', false, Json::error_handler_t::replace) + "\n";
}

TEST(RecordsJsonl, LinesAreTheDumpOfTheObjects) {
  PageReference ref;
  ref.imgSurt = "(pt,arquivo,)/a.jpg";
  ref.imgUrl = "http://arquivo.pt/a.jpg";
  ref.imgAlt = "quote \" back\\slash tab\t nl\n ctl\x01 del\x7f";
  ref.imgCaption = "Lisboa à noite — 日本";
  ref.pageTitle = "bad utf-8 \xC3\x28 and \xFF end";
  ref.imagesInPage = -1;
  ref.offset = 18446744073709551615ull;
  ref.inline_ = true;
  EXPECT_EQ(to_jsonl(ref), dumped(ref));
  EXPECT_NE(to_jsonl(ref).find("\"imgAlt\":\"quote \\\" back\\\\slash tab\\t nl\\n ctl\\u0001"),
            std::string::npos);

  ImageCapture img;
  img.imgUrl = "http://x/\xE9.png";
  img.width = 640;
  img.size = 12345;
  EXPECT_EQ(to_jsonl(img), dumped(img));
  EXPECT_EQ(to_jsonl(img).substr(0, 26), "{\"type\":\"image\",\"imgSurt\":");

  ImageRevisit rev;
  rev.refersToUrl = "http://x/b.gif";
  EXPECT_EQ(to_jsonl(rev), dumped(rev));
}

TEST(RecordsJsonl, AppendedLinesFollowWhatIsThere) {
  PageReference ref;
  ref.imgUrl = "http://arquivo.pt/a.jpg";
  ref.length = 7;
  ImageRevisit rev;
  rev.imgUrl = "http://x/b.gif";
  std::string out = "earlier line\n";
  append_jsonl(ref, out);
  append_jsonl(rev, out);
  EXPECT_EQ(out, "earlier line\n" + dumped(ref) + dumped(rev));
}

TEST(RecordsJsonl, ViewsWriteTheLinesOfTheRecords) {
  ImageRevisit rev;
  rev.imgSurt = "(x,)/b.gif";
  rev.imgUrl = "http://x/b.gif";
  rev.offset = 42;
  rev.refersToUrl = "http://x/\xC3\x28.gif";
  rev.mimeReported = "image/gif";
  ImageRevisitView rev_view{rev.imgSurt,     rev.imgUrl,       rev.timestamp,    rev.collection,
                            rev.file,        rev.offset,       rev.length,       rev.warcDigest,
                            rev.refersToUrl, rev.refersToSurt, rev.refersToDate, rev.mimeReported};
  std::string out;
  append_jsonl(rev_view, out);
  EXPECT_EQ(out, to_jsonl(rev));

  PageReference ref;
  ref.imgUrl = "http://arquivo.pt/a.jpg";
  ref.imgCaption = "Lisboa à noite";
  ref.pageTitle = "t\"";
  ref.imagesInPage = 3;
  ref.inline_ = true;
  ref.position = "logo";
  ref.book = R"({"author":["A"]})";
  ref.pageSketch = "5:AAAA";
  PageReferenceView ref_view{ref.imgSurt,       ref.imgUrl,     ref.imgUrlTokens,  ref.imgAlt,
                             ref.imgTitle,      ref.imgCaption, ref.tag,           ref.pageUrl,
                             ref.pageTimestamp, ref.pageTitle,  ref.pageUrlTokens, ref.pageHost,
                             ref.imagesInPage,  ref.collection, ref.file,          ref.offset,
                             ref.length,        ref.inline_,    ref.position,      ref.book,
                             ref.pageSketch};
  out.clear();
  append_jsonl(ref_view, out);
  EXPECT_EQ(out, to_jsonl(ref));
}

}  // namespace
}  // namespace strata::extract
