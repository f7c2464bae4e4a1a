// More like this (GET /imagesearch/similar?digest=, POST of an image): nearest first with
// distances, the radius, safe search, blocked, flat and unknown images, the upload path's
// limits, and an index that grows while the server runs.
#include <gtest/gtest.h>
#include <httplib.h>

#include "analyze/phash.hpp"
#include "analyze/thumbnail.hpp"
#include "core/json.hpp"
#include "index/writer.hpp"
#include "running_server.hpp"
#include "sample/encode.hpp"
#include "sample_docs.hpp"
#include "server/request_head.hpp"
#include "server/similar_api.hpp"
#include "testing/shared_data.hpp"

namespace strata::server {
namespace {

using Digests = std::vector<std::string>;

// A 120x90 picture with detail (a pHash far from flat).
std::string textured_png() {
  sample::Canvas c{120, 90, std::vector<uint8_t>(120 * 90 * 3)};
  for (int y = 0; y < c.height; ++y)
    for (int x = 0; x < c.width; ++x) {
      uint8_t* p = &c.pixels[(y * c.width + x) * 3];
      p[0] = static_cast<uint8_t>((x * 7 + y * 3) % 256);
      p[1] = static_cast<uint8_t>((x * y) % 256);
      p[2] = static_cast<uint8_t>(((x / 20 + y / 15) % 2) * 200);
    }
  return sample::encode_png(c);
}

// The pHash the analysis gives those bytes.
uint64_t analysis_phash(const std::string& bytes) {
  analyze::Thumbnail thumb;
  EXPECT_EQ(analyze::make_thumbnail(bytes, {}, thumb), analyze::DecodeStatus::ok);
  return analyze::phash_rgb(thumb.decoded.rgb.data(), thumb.decoded.width, thumb.decoded.height);
}

uint64_t flip_bits(uint64_t hash, int bits) {
  for (int b = 0; b < bits; ++b) hash ^= uint64_t{1} << (b * 5);
  return hash;
}

// id -> (bits flipped from the query's pHash; safe-search score; blocked)
struct Planted {
  std::string id;
  int bits;
  double safe = 0.1;
  bool blocked = false;
};

class SimilarImages : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    png_ = new std::string(textured_png());
    query_ = analysis_phash(*png_);
    dir_ = new std::filesystem::path(strata::testing::scratch_dir() / "index");
    add({{"query", 0},
         {"near2", 2},
         {"near6", 6},
         {"far10", 10},
         {"nsfw1", 1, 0.9},
         {"blocked1", 1, 0.1, true},
         {"flat", -1}});
  }
  static void TearDownTestSuite() {
    delete dir_;
    delete png_;
  }

  static void add(const std::vector<Planted>& planted) {
    testing::add_planted(*dir_, planted, [](const Planted& p, index::Moderation& m) {
      m.phash = p.bits < 0 ? 0 : flip_bits(query_, p.bits);
      m.safe = p.safe;
      m.blocked = p.blocked;
    });
  }

  static Params params(std::initializer_list<std::pair<std::string, std::string>> kv) {
    return Params(kv.begin(), kv.end());
  }
  Reply by_digest(const Params& p) {
    Xapian::Database db(dir_->string());
    return similar_by_digest(db, search::IndexParts(db), *build_similar_snapshot(db), p,
                             {"http://x", "/imagesearch/similar"}, {});
  }
  Reply by_upload(const std::string& bytes, const Params& p = {}) {
    Xapian::Database db(dir_->string());
    return similar_by_upload(db, search::IndexParts(db), *build_similar_snapshot(db), bytes, p,
                             {"http://x", "/imagesearch/similar"}, {});
  }
  // The digests and distances of a 200 reply.
  static std::vector<std::pair<std::string, int>> found(const Reply& r) {
    EXPECT_EQ(r.status, 200) << r.body;
    std::vector<std::pair<std::string, int>> out;
    const Json reply = Json::parse(r.body);
    for (const auto& i : reply["responseItems"]) out.emplace_back(i["imgDigest"], i["distance"]);
    return out;
  }
  static std::string error_parameter(const Reply& r) {
    return Json::parse(r.body)["error"]["parameter"];
  }

  static std::filesystem::path* dir_;
  static std::string* png_;
  static uint64_t query_;
};
std::filesystem::path* SimilarImages::dir_ = nullptr;
std::string* SimilarImages::png_ = nullptr;
uint64_t SimilarImages::query_ = 0;

using Found = std::vector<std::pair<std::string, int>>;

TEST_F(SimilarImages, ByDigestNearestFirstWithinTheRadiusWithoutItself) {
  Reply r = by_digest(params({{"digest", "query"}}));
  EXPECT_EQ(found(r), (Found{{"near2", 2}, {"near6", 6}}));
  const Json j = Json::parse(r.body);
  EXPECT_EQ(j["totalItems"], 2);
  EXPECT_EQ(j["query"]["digest"], "query");
  EXPECT_EQ(j["query"]["phash"], analyze::phash_hex(query_));
  EXPECT_EQ(j["query"]["distance"], 8);
  EXPECT_TRUE(j["fieldReturnability"]["distance"]);
  EXPECT_EQ(j["responseItems"][0]["imgLinkToArchive"],
            "http://x/wayback/20100101000000im_/https://imagens.publico.pt/near2.png?tp=UH");
}

TEST_F(SimilarImages, DistanceSafeSearchAndPaging) {
  EXPECT_EQ(found(by_digest(params({{"digest", "query"}, {"distance", "4"}}))),
            (Found{{"near2", 2}}));
  EXPECT_EQ(found(by_digest(params({{"digest", "query"}, {"safeSearch", "off"}}))),
            (Found{{"nsfw1", 1}, {"near2", 2}, {"near6", 6}}));
  Reply page = by_digest(params({{"digest", "query"}, {"offset", "1"}, {"maxItems", "1"}}));
  EXPECT_EQ(found(page), (Found{{"near6", 6}}));
  EXPECT_EQ(Json::parse(page.body)["totalItems"], 2);
}

TEST_F(SimilarImages, RefusalsNameTheirParameter) {
  struct Case {
    Params p;
    int status;
    std::string parameter;
  };
  for (const auto& c : std::vector<Case>{
           {params({}), 400, "digest"},
           {params({{"digest", "nope"}}), 404, "digest"},
           {params({{"digest", "blocked1"}}), 404, "digest"},
           {params({{"digest", "flat"}}), 422, "digest"},
           {params({{"digest", "query"}, {"distance", "9"}}), 400, "distance"},
           {params({{"digest", "query"}, {"distance", "x"}}), 400, "distance"},
           {params({{"digest", "query"}, {"q", "praia"}}), 400, "q"},
           {params({{"digest", "query"}, {"maxItems", "201"}}), 400, "maxItems"},
       }) {
    Reply r = by_digest(c.p);
    EXPECT_EQ(r.status, c.status) << r.body;
    EXPECT_EQ(error_parameter(r), c.parameter) << r.body;
  }
}

TEST_F(SimilarImages, UploadHashesAsTheAnalysisDoesAndIsValidated) {
  EXPECT_EQ(found(by_upload(*png_)), (Found{{"query", 0}, {"near2", 2}, {"near6", 6}}));
  EXPECT_EQ(Json::parse(by_upload(*png_).body).count("nextPage"), 0u);
  EXPECT_EQ(by_upload("").status, 400);
  EXPECT_EQ(by_upload("not an image at all").status, 415);
  EXPECT_EQ(by_upload(sample::encode_png_solid(64, 64, {200, 200, 200})).status, 422);
  Reply huge = by_upload(sample::encode_png_solid(6000, 5000, {1, 2, 3}));  // 30 Mpx
  EXPECT_EQ(huge.status, 413) << huge.body;
  EXPECT_EQ(error_parameter(huge), "body");
}

TEST_F(SimilarImages, ServedOverHttpAndFollowsTheGrowingIndex) {
  ServerOptions o;
  o.index_dir = *dir_;
  testing::RunningServer running(o);
  httplib::Client c("127.0.0.1", running.port());
  auto get = c.Get("/imagesearch/similar?digest=query");
  ASSERT_TRUE(get);
  EXPECT_EQ(get->status, 200);
  auto post = c.Post("/imagesearch/similar?maxItems=1", *png_, "image/png");
  ASSERT_TRUE(post);
  EXPECT_EQ(post->status, 200) << post->body;
  EXPECT_EQ(Json::parse(post->body)["responseItems"][0]["imgDigest"], "query") << post->body;
  EXPECT_EQ(c.Post("/imagesearch", *png_, "image/png")->status, 405);
  const Json spec = Json::parse(c.Get("/imagesearch/openapi.json")->body);
  EXPECT_TRUE(spec["paths"]["/imagesearch/similar"].contains("get"));
  EXPECT_TRUE(spec["paths"]["/imagesearch/similar"].contains("post"));

  add({{"added3", 3}});  // a later `strata index`: the next request sees it
  auto again = c.Get("/imagesearch/similar?digest=query&distance=3");
  ASSERT_TRUE(again);
  EXPECT_EQ(found({again->status, again->body}), (Found{{"near2", 2}, {"added3", 3}}));

  testing::RawConnection big(running.port());
  big.send("POST /imagesearch/similar HTTP/1.1\r\nHost: a\r\nContent-Length: " +
           std::to_string(kMaxUploadBody + 1) + "\r\n\r\n");
  EXPECT_EQ(big.status(), 413);
}

}  // namespace
}  // namespace strata::server
