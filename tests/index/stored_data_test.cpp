#include "index/stored_data.hpp"

#include <gtest/gtest.h>
#include <xapian.h>

#include "index/schema.hpp"
#include "index/writer.hpp"
#include "testing/shared_data.hpp"
#include "url/url.hpp"

namespace strata::index {
namespace {

constexpr int kEnoughToTrain = 4100;  // the writer trains after its first 4000 documents

merge::ImageDocument doc(int i) {
  merge::ImageDocument d;
  d.id = d.imgDigest = "digest-" + std::to_string(i);
  d.imgUrl =
      "http://www.site" + std::to_string(i % 97) + ".pt/imagens/foto_" + std::to_string(i) + ".jpg";
  d.imgCrawlTimestamp = d.imgCrawlTimestampLatest = "2010010100000" + std::to_string(i % 10);
  d.imgAlt = {"fotografia da praia numero " + std::to_string(i)};
  d.pageUrl = "http://www.site" + std::to_string(i % 97) + ".pt/noticias/" + std::to_string(i);
  d.pageTitle = "Noticias de Lisboa";
  d.pageHost = "www.site" + std::to_string(i % 97) + ".pt";
  d.collection = {"c1"};
  return d;
}

bool is_json(const std::string& data) {
  return !data.empty() && (data.front() == '[' || data.front() == '{');
}

void add_range(IndexWriter& w, int from, int to) {
  for (int i = from; i < to; ++i) w.add(doc(i));
}

TEST(StoredData, WriterTrainsADictionaryAndEveryDocumentReadsBack) {
  auto dir = strata::testing::scratch_dir() / "idx";
  {
    IndexWriter w(dir);
    w.begin();
    add_range(w, 0, kEnoughToTrain);
    w.commit();
  }
  Xapian::Database db(dir.string());
  ASSERT_FALSE(db.get_metadata(std::string(kMetaDictionary)).empty());
  const StoredData stored(db);
  ASSERT_TRUE(stored.has_dictionary());
  size_t packed = 0, plain = 0;
  for (Xapian::docid id = 1; id <= db.get_doccount(); ++id) {
    const std::string data = db.get_document(id).get_data();
    EXPECT_FALSE(is_json(data)) << "document " << id << " left uncompressed";
    merge::ImageDocument d;
    Moderation m;
    const std::string json = stored.unpack(data);
    ASSERT_TRUE(parse_document_data(json, d, m)) << id;
    EXPECT_EQ(d.imgUrl, doc(static_cast<int>(id) - 1).imgUrl);
    packed += data.size();
    plain += json.size();
  }
  EXPECT_LT(packed * 3, plain);  // at least 3x smaller
}

TEST(StoredData, DictionaryOfACancelledBatchIsGoneAndPlainDataStillReads) {
  auto dir = strata::testing::scratch_dir() / "idx";
  IndexWriter w(dir);
  w.begin();
  add_range(w, 0, kEnoughToTrain);
  w.cancel();
  w.begin();
  add_range(w, 0, 10);
  w.commit();
  Xapian::Database db(dir.string());
  EXPECT_TRUE(db.get_metadata(std::string(kMetaDictionary)).empty());
  EXPECT_EQ(db.get_doccount(), 10u);
  EXPECT_TRUE(is_json(db.get_document(1).get_data()));
  EXPECT_EQ(w.get("digest-3")->imgUrl, doc(3).imgUrl);
}

TEST(StoredData, FieldsThatFollowFromTheUrlsAreLeftOutAndReadBack) {
  merge::ImageDocument derived = doc(7);
  derived.imgSurt = url::surt(derived.imgUrl);
  derived.imgUrlTokens = url::url_tokens(derived.imgUrl);
  derived.pageUrlTokens = url::url_tokens(derived.pageUrl);
  merge::ImageDocument own = derived;  // values that do not follow from the URLs stay stored
  own.imgSurt = "(pt,site7,)/other.jpg";
  own.pageUrlTokens = "";
  for (const merge::ImageDocument& d : {derived, own}) {
    const std::string data = document_data(d, Moderation{});
    EXPECT_EQ(data.find("\"type\""), std::string::npos);
    EXPECT_EQ(data.find("imgSurt") == std::string::npos, d.imgSurt == derived.imgSurt);
    EXPECT_EQ(data.find("pageUrlTokens") == std::string::npos, !d.pageUrlTokens.empty());
    EXPECT_EQ(data.find("imgUrlTokens"), std::string::npos);
    merge::ImageDocument back;
    Moderation m;
    ASSERT_TRUE(parse_document_data(data, back, m));
    EXPECT_EQ(merge::to_json(back), merge::to_json(d));
  }
}

TEST(StoredData, CorruptFramesReadAsEmpty) {
  auto dir = strata::testing::scratch_dir() / "idx";
  {
    IndexWriter w(dir);
    add_range(w, 0, kEnoughToTrain);
  }
  Xapian::Database db(dir.string());
  const StoredData stored(db);
  std::string data = db.get_document(5).get_data();
  data.resize(data.size() / 2);
  EXPECT_EQ(stored.unpack(data), "");
  EXPECT_EQ(stored.unpack(std::string("\x28\xB5\x2F\xFD", 4)), "");
}

TEST(IndexWriter, RefusesAnIndexOfAnotherSchemaVersion) {
  auto dir = strata::testing::scratch_dir() / "idx";
  {
    Xapian::WritableDatabase db(dir.string(), Xapian::DB_CREATE_OR_OPEN);
    db.set_metadata(std::string(kMetaSchema), "2");
  }
  EXPECT_THROW(IndexWriter{dir}, std::runtime_error);
}

}  // namespace
}  // namespace strata::index
