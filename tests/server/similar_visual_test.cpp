// Visually similar (GET /imagesearch/similar?digest=&mode=visual, POST with mode=visual): the
// pHash near-duplicates first, then the visual neighbours by cosine of their embeddings, with
// safe search, blocked and decorative images, images without an embedding, and embeddings
// kept when the writer rewrites a document.
#include <gtest/gtest.h>

#include "analyze/analyzer.hpp"
#include "analyze/embedding.hpp"
#include "analyze/phash.hpp"
#include "core/json.hpp"
#include "index/schema.hpp"
#include "index/writer.hpp"
#include "sample/encode.hpp"
#include "sample_docs.hpp"
#include "server/similar_api.hpp"
#include "testing/shared_data.hpp"

namespace strata::server {
namespace {

using similar::EmbeddingCode;

// A direction, and copies of it bent away by `bend` (0: the same; 127: unrelated).
EmbeddingCode bent(int bend) {
  EmbeddingCode c;
  for (size_t i = 0; i < c.size(); ++i) {
    const int base = (int(i) * 37 % 255) - 127;
    const int other = (int(i) * 91 % 255) - 127;
    c[i] = int8_t((base * (127 - bend) + other * bend) / 127);
  }
  return c;
}

struct Planted {
  std::string id;
  std::optional<int> bend;        // the embedding; none: not embedded
  std::optional<uint64_t> phash;  // none: no pHash
  double safe = 0.1;
  bool blocked = false;
};

constexpr uint64_t kQueryPhash = 0x9a3c5f0e1d2b4c68ull;

class VisualNeighbours : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new std::filesystem::path(strata::testing::scratch_dir() / "index");
    planted_ = new std::vector<Planted>{
        {"query", 0, kQueryPhash},
        {"near_dup", 120, kQueryPhash ^ 0b101},  // pHash distance 2, unlike in embedding
        {"close", 10, std::nullopt},
        {"middle", 40, 0x1111222233334444ull},
        {"far", 90, std::nullopt},
        {"close_nsfw", 5, std::nullopt, 0.9},
        {"close_blocked", 3, std::nullopt, 0.1, true},
        {"no_embedding", std::nullopt, 0x0f0f0f0f12345678ull},
    };
    add(*planted_);
  }
  static void TearDownTestSuite() {
    delete dir_;
    delete planted_;
  }

  static void add(const std::vector<Planted>& planted) {
    testing::add_planted(*dir_, planted, [](const Planted& p, index::Moderation& m) {
      m.phash = p.phash;
      if (p.bend) m.embedding = bent(*p.bend);
      m.safe = p.safe;
      m.blocked = p.blocked;
    });
  }

  static Reply by_digest(Params p, const char* mode = "visual") {
    p.emplace("mode", mode);
    Xapian::Database db(dir_->string());
    return similar_by_digest(db, search::IndexParts(db), *build_similar_snapshot(db), p,
                             {"http://x", "/imagesearch/similar"}, {});
  }
  // (digest, distance or -1, similarity or -1) of a 200 reply.
  struct Item {
    std::string digest;
    int distance;
    double similarity;
  };
  static std::vector<Item> items(const Reply& r) {
    EXPECT_EQ(r.status, 200) << r.body;
    std::vector<Item> out;
    const Json reply = Json::parse(r.body);
    for (const auto& i : reply["responseItems"])
      out.push_back({i["imgDigest"], i.value("distance", -1), i.value("similarity", -1.0)});
    return out;
  }
  static std::vector<std::string> digests(const Reply& r) {
    std::vector<std::string> out;
    for (const auto& i : items(r)) out.push_back(i.digest);
    return out;
  }

  static std::filesystem::path* dir_;
  static std::vector<Planted>* planted_;
};
std::filesystem::path* VisualNeighbours::dir_ = nullptr;
std::vector<Planted>* VisualNeighbours::planted_ = nullptr;

TEST_F(VisualNeighbours, NearDuplicatesFirstThenByCosine) {
  const Reply r = by_digest({{"digest", "query"}});
  const auto found = items(r);
  ASSERT_EQ(found.size(), 4u) << r.body;
  EXPECT_EQ(found[0].digest, "near_dup");
  EXPECT_EQ(found[0].distance, 2);
  EXPECT_EQ(found[0].similarity, -1);
  EXPECT_EQ(digests(r), (std::vector<std::string>{"near_dup", "close", "middle", "far"}));
  for (size_t k = 1; k < found.size(); ++k) {
    EXPECT_EQ(found[k].distance, -1);
    const double expected = similar::cosine(bent(0), bent(planted_->at(k == 1   ? 2
                                                                       : k == 2 ? 3
                                                                                : 4)
                                                              .bend.value()));
    EXPECT_NEAR(found[k].similarity, expected, 0.0006);
  }
  EXPECT_GT(found[1].similarity, found[2].similarity);
  const Json j = Json::parse(r.body);
  EXPECT_EQ(j["query"]["mode"], "visual");
  EXPECT_EQ(j["totalItems"], 4);
  EXPECT_TRUE(j["fieldReturnability"]["similarity"]);
}

// Without mode=visual an embedded image still gets its pHash near-duplicates alone.
TEST_F(VisualNeighbours, NearModeListsTheNearDuplicatesOnly) {
  EXPECT_EQ(digests(by_digest({{"digest", "query"}}, "near")),
            (std::vector<std::string>{"near_dup"}));
}

TEST_F(VisualNeighbours, SafeSearchOffShowsTheHiddenBlockedNever) {
  EXPECT_EQ(digests(by_digest({{"digest", "query"}, {"safeSearch", "off"}})),
            (std::vector<std::string>{"near_dup", "close_nsfw", "close", "middle", "far"}));
  EXPECT_EQ(digests(by_digest({{"digest", "query"}, {"offset", "2"}, {"maxItems", "1"}})),
            (std::vector<std::string>{"middle"}));
}

TEST_F(VisualNeighbours, AQueryWithoutPhashStillFindsItsNeighbours) {
  EXPECT_EQ(digests(by_digest({{"digest", "close"}})),
            (std::vector<std::string>{"query", "middle", "far", "near_dup"}));
}

TEST_F(VisualNeighbours, Refusals) {
  const Reply none = by_digest({{"digest", "no_embedding"}});
  EXPECT_EQ(none.status, 422) << none.body;
  Xapian::Database db(dir_->string());
  const Reply bad = similar_by_digest(db, search::IndexParts(db), *build_similar_snapshot(db),
                                      {{"digest", "query"}, {"mode", "colour"}},
                                      {"http://x", "/imagesearch/similar"}, {});
  EXPECT_EQ(bad.status, 400);
  EXPECT_EQ(Json::parse(bad.body)["error"]["parameter"], "mode");
}

// A later batch that re-merges a document rewrites it from its stored data, which lacks the
// embedding: the writer carries the value slot over.
TEST_F(VisualNeighbours, RewrittenDocumentsKeepTheirEmbedding) {
  {
    index::IndexWriter w(*dir_);  // no analysis join: the moderation is the stored one
    merge::ImageDocument d = testing::doc("close", "20110101000000", "mar");
    d.imgWidth = 400, d.imgHeight = 300;
    EXPECT_EQ(w.replace(w.docid_of("close").value(), d), index::AddOutcome::merged);
  }
  Xapian::Database db(dir_->string());
  auto it = db.postlist_begin(index::id_term("close"));
  ASSERT_NE(it, db.postlist_end(index::id_term("close")));
  EXPECT_EQ(analyze::embedding_from_bytes(db.get_document(*it).get_value(index::slot::embedding)),
            bent(10));
}

// An upload runs the model as the analysis does: its own indexed copy is its nearest.
TEST(VisualUpload, RunsTheModelAsTheAnalysisDoes) {
  const auto models = analyze::find_nsfw_models();
  if (!models) GTEST_SKIP() << "nsfwjs model not installed (run scripts/setup-npm)";
  analyze::NsfwClassifier classifier(*models / analyze::kDefaultNsfwModel);
  const analyze::ThumbnailStore store(strata::testing::scratch_dir() / "thumbs");
  analyze::Analyzer analyzer({}, store, &classifier);
  sample::Canvas c{160, 120, std::vector<uint8_t>(160 * 120 * 3)};
  for (size_t i = 0; i < c.pixels.size(); ++i) c.pixels[i] = uint8_t((i * 131 / 7) % 251);
  const std::string png = sample::encode_png(c);
  const analyze::AnalysisRecord record = analyzer.analyze("upload", png);
  ASSERT_TRUE(record.embedding);
  const auto dir = strata::testing::scratch_dir() / "index";
  {
    index::IndexWriter w(dir);
    w.set_moderate([&](const merge::ImageDocument&, index::Moderation& m) {
      m.embedding = record.embedding;
      m.safe = 0.1;
    });
    merge::ImageDocument d = testing::doc("upload", "20100101000000", "praia");
    w.add(d);
    w.add(testing::doc("other", "20100101000000", "praia"));
  }
  Xapian::Database db(dir.string());
  const Reply r = similar_by_upload(db, search::IndexParts(db), *build_similar_snapshot(db), png,
                                    {{"mode", "visual"}}, {"http://x", "/imagesearch/similar"}, {});
  ASSERT_EQ(r.status, 200) << r.body;
  const Json j = Json::parse(r.body);
  ASSERT_GE(j["responseItems"].size(), 1u);
  EXPECT_EQ(j["responseItems"][0]["imgDigest"], "upload");
  EXPECT_NEAR(j["responseItems"][0]["similarity"].get<double>(), 1.0, 0.001);
}

}  // namespace
}  // namespace strata::server
