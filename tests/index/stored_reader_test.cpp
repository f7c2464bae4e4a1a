#include "index/stored_reader.hpp"

#include <gtest/gtest.h>

#include "index/stored_form.hpp"
#include "url/url.hpp"

namespace strata::index {
namespace {

// Every field set, several values in the lists, non-ASCII text and escapes.
merge::ImageDocument full_document() {
  merge::ImageDocument d;
  d.id = d.imgDigest = std::string(64, 'a');
  d.imgUrl = "http://www.exemplo.pt/imagens/São_João-1.jpg?x=1&y=\"2\"";
  d.imgSurt = url::join_surt(d.imgUrl);
  d.imgUrlTokens = url::url_tokens(d.imgUrl);
  d.imgMimeType = "image/jpeg";
  d.imgMimeTypeReported = "image/pjpeg";
  d.imgWidth = 640;
  d.imgHeight = 480;
  d.imgSize = 5'000'000'000;
  d.imgCrawlTimestamp = "20080304050607";
  d.imgCrawlTimestampLatest = "20210101000000";
  d.imgCaptureTimes = {"20080304050607", "20120101000000", "20210101000000"};
  d.imgFile = "AWP-2008.warc.gz";
  d.imgOffset = 1234567890123;
  d.imgLength = 4567;
  d.isInline = false;
  d.imgTitle = {"Título \\ com \"aspas\""};
  d.imgAlt = {"praia", "Praia da Rocha\n2008"};
  d.imgCaption = {"Legenda 😀"};
  d.pageUrl = "https://exemplo.pt/noticias/2008/praia.html";
  d.pageUrlTokens = url::url_tokens(d.pageUrl);
  d.pageTitle = "Notícias";
  d.pageHost = "exemplo.pt";
  d.pageCrawlTimestamp = "20080304050600";
  d.pageFile = "AWP-2008-page.warc.gz";
  d.pageOffset = 99;
  d.pageLength = 12;
  d.tags = {"img", "a"};
  d.imagesInOriginalPage = 17;
  d.imageMetadataChanges = 2;
  d.pageMetadataChanges = -1;
  d.matchingImages = 3;
  d.matchingPages = 4;
  d.distinctPages = 3;
  d.collection = {"AWP", "BT"};
  return d;
}

Moderation full_moderation() {
  Moderation m;
  m.safe = 0.125;
  m.blocked = true;
  m.analysis = "ok";
  m.phash = 0x0123456789abcdefull;
  m.pdq = analyze::PdqHash{1, 2, 3, 0xfedcba9876543210ull};
  m.drawing = true;
  m.thumbnail = "ab/cd.webp";
  m.thumb_width = 200;
  m.thumb_height = 150;
  return m;
}

std::string json_of(const merge::ImageDocument& d) {
  return merge::to_json(d).dump();
}

TEST(StoredReader, ReadsEveryFieldOfTheArrayLayoutBack) {
  const merge::ImageDocument d = full_document();
  const Moderation m = full_moderation();
  merge::ImageDocument back;
  Moderation back_m;
  ASSERT_TRUE(read_stored_array(document_data(d, m), back, back_m));
  EXPECT_EQ(json_of(back), json_of(d));
  // The hashes are in value slots only (read_slot_moderation), not in the stored data.
  Moderation stored_part = m;
  stored_part.phash.reset();
  stored_part.pdq.reset();
  EXPECT_EQ(back_m, stored_part);
  read_slot_moderation(build_document(d, m), back_m);
  EXPECT_EQ(back_m, m);
}

TEST(StoredReader, AbsentFieldsKeepTheirDefaultsAndDerivedFieldsAreRestored) {
  merge::ImageDocument d;
  d.id = "only-an-id";
  d.imgUrl = "http://a.pt/b.png";
  d.imgSurt = url::join_surt(d.imgUrl);  // as the merge writes them: left out when stored
  d.imgUrlTokens = url::url_tokens(d.imgUrl);
  const std::string data = document_data(d, Moderation{});
  ASSERT_EQ(data.find("a pt b png"), std::string::npos) << data;
  merge::ImageDocument back;
  Moderation back_m;
  ASSERT_TRUE(read_stored_array(data, back, back_m));
  EXPECT_EQ(back.imgSurt, url::join_surt(d.imgUrl));
  EXPECT_EQ(back.imgUrlTokens, url::url_tokens(d.imgUrl));
  EXPECT_EQ(back.pageUrlTokens, "");  // no page URL: nothing to derive
  EXPECT_EQ(back.imgWidth, 0);
  EXPECT_EQ(back_m, Moderation{});  // not classified: safe -1
}

TEST(StoredReader, ReadsTheExtraFieldsAfterTheArray) {
  merge::ImageDocument d = full_document();
  d.imgSurt = "a surt that does not follow from the URL";  // stored in the trailing object
  const Json stored = Json::parse(document_data(d, Moderation{}));
  ASSERT_TRUE(stored.back().is_object());
  merge::ImageDocument back;
  Moderation back_m;
  ASSERT_TRUE(read_stored_array(stored.dump(), back, back_m));
  EXPECT_EQ(json_of(back), json_of(d));
}

TEST(StoredReader, LeavesWhatItDoesNotReadToTheGeneralPath) {
  merge::ImageDocument d;
  Moderation m;
  // The object layout, a number where an integer field is read (nlohmann converts it),
  // malformed JSON, a "type" among the extra fields.
  const std::string object_layout = merge::to_json(full_document()).dump();
  EXPECT_FALSE(read_stored_array(object_layout, d, m));
  EXPECT_TRUE(parse_document_data(object_layout, d, m));
  EXPECT_EQ(json_of(d), json_of(full_document()));

  Json stored = Json::parse(document_data(full_document(), Moderation{}));
  stored[5] = 640.75;  // imgWidth
  EXPECT_FALSE(read_stored_array(stored.dump(), d, m));
  ASSERT_TRUE(parse_document_data(stored.dump(), d, m));
  EXPECT_EQ(d.imgWidth, 640);

  EXPECT_FALSE(read_stored_array("[\"id\", ", d, m));
  EXPECT_FALSE(parse_document_data("[\"id\", ", d, m));
  stored = Json::parse(document_data(full_document(), Moderation{}));
  while (stored.size() < stored_field_names().size()) stored.push_back(nullptr);
  stored.push_back(Json{{"type", "image"}});
  EXPECT_FALSE(read_stored_array(stored.dump(), d, m));
  EXPECT_FALSE(parse_document_data(stored.dump(), d, m));  // not a document
}

}  // namespace
}  // namespace strata::index
