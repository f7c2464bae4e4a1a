// Each word counts once per field (wdf += the field's weight at its first occurrence), so a
// document merged from many references is not lengthened by repeating the same words.
#include <gtest/gtest.h>
#include <xapian.h>

#include "index/analysis.hpp"
#include "index/document_builder.hpp"

namespace strata::index {
namespace {

Xapian::termcount wdf(const Xapian::Document& xd, const std::string& word) {
  const std::string stem = analyze(word).at(0).stem;
  auto it = xd.termlist_begin();
  it.skip_to(stem);
  return it != xd.termlist_end() && *it == stem ? it.get_wdf() : 0;
}

Xapian::termcount length(const Xapian::Document& xd) {
  Xapian::termcount n = 0;
  for (auto it = xd.termlist_begin(); it != xd.termlist_end(); ++it) n += it.get_wdf();
  return n;
}

merge::ImageDocument captioned(std::vector<std::string> captions) {
  merge::ImageDocument d;
  d.id = "a";
  d.imgUrl = "http://a.pt/x.jpg";
  d.imgCaption = std::move(captions);
  return d;
}

TEST(FieldCounting, RepeatedWordsCountOncePerField) {
  const Moderation m;
  auto once = build_document(captioned({"Internet Archive"}), m);
  auto merged = build_document(
      captioned({"Internet Archive", "the Internet Archive web", "Internet Archive web"}), m);
  EXPECT_EQ(wdf(once, "internet"), 3u);  // imgCaption weight
  EXPECT_EQ(wdf(merged, "internet"), 3u);
  EXPECT_EQ(wdf(merged, "web"), 3u);
  EXPECT_EQ(length(merged), length(once) + 2 * 3);  // "the" and "web" are the only new words
}

TEST(FieldCounting, EachFieldAddsItsWeightOnce) {
  auto d = captioned({"lisboa lisboa"});
  d.imgAlt = {"Lisboa", "Lisboa antiga"};
  d.imgTitle = {"Lisboa"};
  EXPECT_EQ(wdf(build_document(d, Moderation{}), "lisboa"), 3u + 3u + 4u);
}

TEST(FieldCounting, RepeatsKeepTheirPositionsForPhrases) {
  auto xd = build_document(captioned({"farol", "antigo farol"}), Moderation{});
  const std::string stem = analyze("farol").at(0).stem;
  auto it = xd.termlist_begin();
  it.skip_to(stem);
  ASSERT_EQ(*it, stem);
  EXPECT_EQ(it.positionlist_count(), 2u);
}

}  // namespace
}  // namespace strata::index
