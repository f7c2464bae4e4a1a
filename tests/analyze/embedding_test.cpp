// The visual embedding: the pooled output of the classification's own forward pass (both
// backends agree, the scores do not change), its fixed compression to a 128-byte code, and
// what it finds on real images: the image-hashes cat's edited copies against the photos and
// graphics of a real crawl.
#include "analyze/embedding.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <iostream>

#include "analyze/analyzer.hpp"
#include "analyze/model_import.hpp"
#include "analyze/nsfw.hpp"
#include "analyze/thumbnail.hpp"
#include "archive_images.hpp"
#include "test_util.hpp"

namespace strata::analyze {
namespace {

namespace fs = std::filesystem;

std::optional<fs::path> mobilenet() {
  const auto root = find_nsfw_models();
  if (!root || !fs::exists(*root / kDefaultNsfwModel / "model.json")) return std::nullopt;
  return *root / kDefaultNsfwModel;
}

#define REQUIRE_MOBILENET(dir)  \
  const auto dir = mobilenet(); \
  if (!dir) GTEST_SKIP() << "nsfwjs model not installed (run scripts/setup-npm)"

std::vector<float> ramp(size_t n) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = float(i % 7) * 0.5f;
  return v;
}

TEST(EmbeddingCode, FixedForEveryRunAndMachine) {
  // Stored codes meet new ones: the projection must never change.
  const std::string hex = embedding_hex(embedding_code(ramp(1280)));
  EXPECT_EQ(hex, embedding_hex(embedding_code(ramp(1280))));
  EXPECT_EQ(hex.substr(0, 32), "1318e7e6fa0019f7bf9faa1f3f21c5f8");
}

TEST(EmbeddingCode, ScaledToInt8AndScaleFree) {
  const auto code = embedding_code(ramp(1280));
  int largest = 0;
  for (int8_t v : code) largest = std::max(largest, std::abs(int(v)));
  EXPECT_EQ(largest, 127);
  std::vector<float> doubled = ramp(1280);
  for (float& v : doubled) v *= 4;  // sqrt: twice the projection, the same code
  EXPECT_EQ(embedding_code(doubled), code);
  EXPECT_EQ(embedding_code({}), similar::EmbeddingCode{});
  EXPECT_EQ(embedding_code(std::vector<float>(1280, 0.0f)), similar::EmbeddingCode{});
}

TEST(EmbeddingCode, HexAndBytesRoundTrip) {
  const auto code = embedding_code(ramp(1280));
  EXPECT_EQ(embedding_from_hex(embedding_hex(code)), code);
  EXPECT_EQ(embedding_from_bytes(embedding_bytes(code)), code);
  EXPECT_EQ(embedding_hex(code).size(), 256u);
  EXPECT_FALSE(embedding_from_hex("00"));
  EXPECT_FALSE(embedding_from_hex(std::string(256, 'g')));
  EXPECT_FALSE(embedding_from_bytes(std::string(127, 'x')));
}

TEST(EmbeddingRecord, JsonRoundTrip) {
  AnalysisRecord r;
  r.digest = "abc";
  r.status = DecodeStatus::ok;
  r.embedding = embedding_code(ramp(1280));
  AnalysisRecord back;
  ASSERT_TRUE(from_json(to_json(r), back));
  EXPECT_EQ(back.embedding, r.embedding);
  r.embedding.reset();
  ASSERT_TRUE(from_json(to_json(r), back));
  EXPECT_FALSE(back.embedding);
}

RgbImage frame_of(const std::string& bytes) {
  Thumbnail t;
  EXPECT_EQ(make_thumbnail(bytes, {}, t), DecodeStatus::ok);
  return t.sample_frames.at(0);
}

TEST(EmbeddingNetwork, PooledFromTheSamePassOnBothBackends) {
  STRATA_REQUIRE_SHARED();
  REQUIRE_MOBILENET(dir);
  const TfjsModel model = load_tfjs_model(*dir);
  const auto xnnpack = load_network(model, NetBackend::xnnpack);
  const auto opencv = load_network(model, NetBackend::opencv);
  ASSERT_EQ(xnnpack->pooled_size(), 1280);
  ASSERT_EQ(opencv->pooled_size(), 1280);
  const RgbImage cat = frame_of(test::read_file(test::cat_image("cat_01_original.jpg")));
  const std::vector<float> input = nsfw_preprocess(cat, xnnpack->input_size());
  std::vector<float> pooled, pooled_cv;
  const auto scores = xnnpack->forward(input, 1, &pooled);
  EXPECT_EQ(scores, xnnpack->forward(input, 1));  // asking for it changes nothing
  ASSERT_EQ(pooled.size(), 1280u);
  opencv->forward(input, 1, &pooled_cv);
  ASSERT_EQ(pooled_cv.size(), 1280u);
  double worst = 0;
  for (size_t i = 0; i < pooled.size(); ++i)
    worst = std::max(worst, double(std::abs(pooled[i] - pooled_cv[i])));
  EXPECT_LT(worst, 1e-3);
  EXPECT_GT(*std::max_element(pooled.begin(), pooled.end()), 0.1f);  // ReLU6 output, not all 0
}

// The cat's edited copies against a real crawl's images: every edit (rotations, mirror and
// crop included, which the pHash misses) is nearer to the original than every crawl image.
TEST(EmbeddingNetwork, CatCopiesNearerThanCrawlImages) {
  STRATA_REQUIRE_SHARED();
  REQUIRE_MOBILENET(dir);
  NsfwClassifier classifier(*dir);
  const auto code_of = [&](const RgbImage& image) {
    std::vector<std::vector<float>> pooled;
    classifier.classify_batch({&image}, &pooled);
    return embedding_code(pooled.at(0));
  };
  const auto cat = [&](const std::string& name) {
    return code_of(frame_of(test::read_file(test::cat_image(name))));
  };
  const auto original = cat("cat_01_original.jpg");
  float nearest_crawl = -1;
  size_t crawl_images = 0;
  for (const char* archive :
       {"archives/webrecorder__replayweb.page/mkdocs/site/docs/examples/netpreserve-twitter.warc",
        "archives/archivesunleashed__aut/src/test/resources/warc/example.warc.gz"}) {
    for (const auto& image : test::archive_images(archive)) {
      Thumbnail t;
      if (make_thumbnail(image.bytes, {}, t) != DecodeStatus::ok || t.width < 32) continue;
      nearest_crawl =
          std::max(nearest_crawl, similar::cosine(original, code_of(t.sample_frames[0])));
      ++crawl_images;
    }
  }
  ASSERT_GE(crawl_images, 40u);
  std::cout << "  nearest of " << crawl_images << " crawl images: " << nearest_crawl << "\n";
  for (const char* copy : {"cat_02_downscaled.jpg", "cat_03_grayscale.jpg", "cat_04_rotated45.jpg",
                           "cat_05_rotated90.jpg", "cat_06_rotated180.jpg", "cat_07_mirrored.jpg",
                           "cat_08_noise.jpg", "cat_09_text_opaque.jpg", "cat_10_text_overlay.jpg",
                           "cat_11_jpeg_lowquality.jpg", "cat_12_cropped.jpg"}) {
    const float c = similar::cosine(original, cat(copy));
    std::cout << "  " << copy << ": " << c << "\n";
    EXPECT_GT(c, nearest_crawl) << copy;
  }
}

TEST(EmbeddingAnalyzer, RecordCarriesTheFirstFramesCode) {
  STRATA_REQUIRE_SHARED();
  REQUIRE_MOBILENET(dir);
  NsfwClassifier classifier(*dir);
  const ThumbnailStore store(strata::testing::scratch_dir() / "thumbs");
  Analyzer analyzer({}, store, &classifier);
  const std::string bytes = test::read_file(test::cat_image("cat_01_original.jpg"));
  const AnalysisRecord record = analyzer.analyze("cat", bytes);
  ASSERT_TRUE(record.embedding);
  std::vector<std::vector<float>> pooled;
  const RgbImage frame = frame_of(bytes);
  classifier.classify_batch({&frame}, &pooled);
  EXPECT_EQ(*record.embedding, embedding_code(pooled.at(0)));
  EXPECT_EQ(analyzer.counters().get("embedded"), 1);
}

}  // namespace
}  // namespace strata::analyze
