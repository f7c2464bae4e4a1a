#include "index/moderation.hpp"

#include <gtest/gtest.h>
#include <xapian.h>

#include <fstream>
#include <set>
#include <unordered_set>

#include "analyze/run.hpp"
#include "index/index_documents.hpp"
#include "index/schema.hpp"
#include "index/stored_data.hpp"
#include "testing/shared_data.hpp"

namespace strata::index {
namespace {

namespace fs = std::filesystem;

const std::string kCat(64, 'c'), kDog(64, 'd');
// The image-hashes suite's cat (any 64 hex digits would do).
const std::string kCatPdq = "7c744d5ce9c82d4ec65e6b138dd63b9699966644a360e1e1b165da19b6295c4b";

merge::ImageDocument doc(const std::string& digest, const std::string& url) {
  merge::ImageDocument d;
  d.id = d.imgDigest = digest;
  d.imgUrl = url;
  d.imgCrawlTimestamp = d.imgCrawlTimestampLatest = "20100101000000";
  d.imgAlt = {"animal"};
  d.pageUrl = "http://x.pt/page.html";
  d.pageHost = "x.pt";
  d.collection = {"c"};
  return d;
}

analyze::AnalysisRecord drawing_record(const std::string& digest) {
  analyze::AnalysisRecord r;
  r.digest = digest;
  r.status = analyze::DecodeStatus::ok;
  r.thumbnail = digest.substr(0, 2) + "/" + digest.substr(2, 2) + "/" + digest + ".webp";
  r.thumb_width = 200;
  r.thumb_height = 150;
  r.phash = 0x8f373714acfcf4d0ULL;
  r.pdq = analyze::pdq_from_hex(kCatPdq);
  analyze::NsfwScores s;
  s.p = {0.9f, 0.02f, 0.05f, 0.02f, 0.01f};  // drawing
  r.nsfw = s;
  r.model = "mobilenet_v2";
  return r;
}

void append(const fs::path& index_dir, const analyze::AnalysisRecord& r) {
  fs::create_directories(index_dir);
  std::ofstream(analysis_file(index_dir), std::ios::app) << analyze::to_json(r).dump() << '\n';
}

struct Stored {
  Moderation m;
  Xapian::Document xd;
};

Stored stored(const fs::path& dir, const std::string& digest) {
  Xapian::Database db(dir.string());
  auto it = db.postlist_begin(id_term(digest));  // compact mode: the id is the digest
  EXPECT_NE(it, db.postlist_end(id_term(digest)));
  Stored s;
  s.xd = db.get_document(*it);
  merge::ImageDocument d;
  EXPECT_TRUE(parse_document_data(StoredData(db).unpack(s.xd.get_data()), d, s.m));
  read_slot_moderation(s.xd, s.m);
  return s;
}

bool has_term(const Xapian::Document& xd, const std::string& term) {
  auto it = xd.termlist_begin();
  it.skip_to(term);
  return it != xd.termlist_end() && *it == term;
}

void index_docs(const fs::path& dir, const std::vector<merge::ImageDocument>& docs) {
  IndexWriter w(dir);
  w.set_moderate(moderation_of(dir));
  for (const auto& d : docs) w.add(d);
}

TEST(Moderation, AnalysisValuesLandInTheIndexJoinedByDigest) {
  const fs::path dir = strata::testing::scratch_dir() / "idx";
  append(dir, drawing_record(kCat));
  analyze::AnalysisRecord failed;
  failed.digest = kDog;
  failed.status = analyze::DecodeStatus::corrupt;
  append(dir, failed);
  index_docs(dir, {doc(kCat, "http://x.pt/cat.png"), doc(kDog, "http://x.pt/dog.png")});

  const Stored cat = stored(dir, kCat);
  EXPECT_EQ(cat.m.analysis, "ok");
  // The calibrated score (analyze/safe_policy.hpp), not Arquivo's porn + hentai 0.04.
  const double score = analyze::safe_search_value(drawing_record(kCat));
  EXPECT_NEAR(score, 0.48 * 0.05 / 0.9, 1e-6);  // porn + hentai + sexy on the shown scale
  EXPECT_NEAR(cat.m.safe, score, 1e-6);
  EXPECT_TRUE(cat.m.drawing);
  EXPECT_EQ(cat.m.phash, 0x8f373714acfcf4d0ULL);
  ASSERT_TRUE(cat.m.pdq);
  EXPECT_EQ(analyze::pdq_hex(*cat.m.pdq), kCatPdq);
  EXPECT_EQ(cat.m.thumbnail, "cc/cc/" + kCat + ".webp");
  EXPECT_EQ(cat.m.thumb_width, 200);
  EXPECT_EQ(cat.m.thumb_height, 150);
  // In the slots only, raw (index/hash_values.hpp): the stored data has neither.
  EXPECT_EQ(cat.xd.get_value(slot::phash), "\x8f\x37\x37\x14\xac\xfc\xf4\xd0");
  EXPECT_EQ(cat.xd.get_value(slot::pdq).size(), 32u);
  const std::string data = StoredData(Xapian::Database(dir.string())).unpack(cat.xd.get_data());
  EXPECT_EQ(data.find("8f373714acfcf4d0"), std::string::npos);
  EXPECT_EQ(data.find(kCatPdq), std::string::npos);
  EXPECT_NEAR(Xapian::sortable_unserialise(cat.xd.get_value(slot::safe)), score, 1e-6);
  EXPECT_TRUE(has_term(cat.xd, std::string(prefix::drawing)));
  EXPECT_FALSE(has_term(cat.xd, std::string(prefix::safe_hidden)));  // shown by safe search

  const Stored dog = stored(dir, kDog);
  EXPECT_EQ(dog.m.analysis, "corrupt");
  EXPECT_FALSE(dog.m.classified());
  EXPECT_TRUE(dog.m.thumbnail.empty());
  EXPECT_FALSE(has_term(dog.xd, std::string(prefix::drawing)));
  EXPECT_TRUE(has_term(dog.xd, std::string(prefix::safe_hidden)));  // not classified
}

TEST(Moderation, LateAnalysisReachesAnExistingIndexWithoutReindexing) {
  const fs::path dir = strata::testing::scratch_dir() / "idx";
  index_docs(dir, {doc(kCat, "http://x.pt/cat.png")});
  EXPECT_EQ(stored(dir, kCat).m, Moderation{});
  const std::string hidden(prefix::safe_hidden);
  EXPECT_TRUE(has_term(stored(dir, kCat).xd, hidden));
  append(dir, drawing_record(kCat));
  EXPECT_EQ(refresh_index(dir), 1u);
  EXPECT_EQ(stored(dir, kCat).m.analysis, "ok");
  EXPECT_FALSE(has_term(stored(dir, kCat).xd, hidden));  // safe search shows it now
  EXPECT_EQ(refresh_index(dir), 0u);                     // nothing new
}

TEST(Moderation, ReindexingKeepsAnalysisWhenTheRecordIsGone) {
  const fs::path dir = strata::testing::scratch_dir() / "idx";
  append(dir, drawing_record(kCat));
  index_docs(dir, {doc(kCat, "http://x.pt/cat.png")});
  fs::remove(analysis_file(dir));
  auto again = doc(kCat, "http://x.pt/cat.png");
  again.collection = {"other"};
  index_docs(dir, {again});
  EXPECT_EQ(stored(dir, kCat).m.analysis, "ok");
}

TEST(Moderation, BlockListAddAndRemoveOnAnExistingIndex) {
  const fs::path dir = strata::testing::scratch_dir() / "idx";
  index_docs(dir, {doc(kCat, "http://x.pt/cat.png"), doc(kDog, "http://y.pt/dog.png")});
  EXPECT_FALSE(blocklist_changed(dir));
  analyze::BlockList list;
  analyze::BlockPattern p;
  ASSERT_TRUE(analyze::BlockList::parse("host:y.pt", p));
  list.add(p);
  ASSERT_TRUE(list.save(blocklist_file(dir)));
  EXPECT_TRUE(blocklist_changed(dir));
  EXPECT_EQ(refresh_index(dir), 1u);
  EXPECT_FALSE(blocklist_changed(dir));
  EXPECT_TRUE(stored(dir, kDog).m.blocked);
  EXPECT_TRUE(has_term(stored(dir, kDog).xd, std::string(prefix::blocked)));
  EXPECT_FALSE(stored(dir, kCat).m.blocked);

  list.remove(p);
  ASSERT_TRUE(list.save(blocklist_file(dir)));
  EXPECT_EQ(refresh_index(dir), 1u);
  EXPECT_FALSE(stored(dir, kDog).m.blocked);
  EXPECT_FALSE(has_term(stored(dir, kDog).xd, std::string(prefix::blocked)));
}

TEST(Moderation, BlockListAppliesAtIndexTime) {
  const fs::path dir = strata::testing::scratch_dir() / "idx";
  fs::create_directories(dir);
  std::ofstream(blocklist_file(dir)) << "url:http://x.pt/cat\n";
  index_docs(dir, {doc(kCat, "http://x.pt/cat.png"), doc(kDog, "http://x.pt/dog.png")});
  EXPECT_TRUE(stored(dir, kCat).m.blocked);
  EXPECT_FALSE(stored(dir, kDog).m.blocked);
}

// An add to a big index reads only its own digests' analysis records: the other lines are
// skipped unparsed (recognised by their leading digest), the last record of a digest still
// wins, and a line written otherwise (a digest further on) is parsed as before.
TEST(Moderation, OnlyTheAskedDigestsAreLoaded) {
  const fs::path dir = strata::testing::scratch_dir() / "index";
  analyze::AnalysisRecord cat = drawing_record(kCat), dog = drawing_record(kDog);
  append(dir, cat);
  append(dir, dog);
  cat.phash = 0x1234;
  append(dir, cat);  // the last record of a digest wins
  const std::string bird(64, 'b');
  {
    std::ofstream out(analysis_file(dir), std::ios::app);
    out << R"({"status":"ok","digest":")" << bird << R"(","phash":"00000000000000ff"})" << '\n';
    out << R"({"digest":")" << kDog << '\n';  // torn
  }
  EXPECT_EQ(analyze::digest_of_line(analyze::to_json(dog).dump()), kDog);
  EXPECT_EQ(analyze::digest_of_line(R"({"status":"ok","digest":"ab"})"), "");

  const std::unordered_set<std::string> only{kCat, bird};
  const ModerationSource source = ModerationSource::load(dir, &only);
  EXPECT_EQ(source.records(), 2u);
  Moderation m;
  source.apply(doc(kCat, "http://x.pt/cat.jpg"), m);
  EXPECT_EQ(m.phash, 0x1234u);
  Moderation none;
  source.apply(doc(kDog, "http://x.pt/dog.jpg"), none);
  EXPECT_FALSE(none.phash);
  Moderation b;
  source.apply(doc(bird, "http://x.pt/bird.jpg"), b);
  EXPECT_EQ(b.phash, 0xffu);
  EXPECT_EQ(ModerationSource::load(dir).records(), 3u);

  const std::set<std::string> asked{kDog};
  const auto cached = analyze::analysed_digests(analysis_file(dir), &asked);
  EXPECT_EQ(cached.done, (std::set<std::string>{kDog}));  // bird's line is read, not asked for
  EXPECT_EQ(analyze::analysed_digests(analysis_file(dir)).done,
            (std::set<std::string>{kCat, kDog, bird}));
}

}  // namespace
}  // namespace strata::index
