#include "analyze/nsfw.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <memory>

#include "analyze/model_import.hpp"
#include "analyze/safe_policy.hpp"
#include "analyze/thumbnail.hpp"
#include "archive_images.hpp"
#include "core/json.hpp"
#include "test_util.hpp"

namespace strata::analyze {
namespace {

namespace fs = std::filesystem;

std::optional<fs::path> model_dir(const std::string& variant) {
  const auto root = find_nsfw_models();
  if (!root || !fs::exists(*root / variant / "model.json")) return std::nullopt;
  return *root / variant;
}

#define REQUIRE_MODEL(dir, variant)    \
  const auto dir = model_dir(variant); \
  if (!dir) GTEST_SKIP() << "nsfwjs model " << variant << " not installed (run scripts/setup-npm)"

TEST(NsfwRule, ArquivoRule) {
  NsfwScores s;
  s.p = {0.1f, 0.1f, 0.2f, 0.3f, 0.3f};  // porn+hentai 0.4 > neutral, > drawing -> 0.51
  EXPECT_FLOAT_EQ(s.nsfw(), 0.51f);
  s.p = {0.1f, 0.1f, 0.5f, 0.2f, 0.1f};  // 0.3 < neutral -> kept
  EXPECT_FLOAT_EQ(s.nsfw(), 0.3f);
  s.p = {0.0f, 0.3f, 0.0f, 0.4f, 0.3f};
  EXPECT_FLOAT_EQ(s.nsfw(), 0.7f);
  s.p = {0.6f, 0.1f, 0.1f, 0.1f, 0.1f};
  EXPECT_TRUE(s.is_drawing());
  EXPECT_FLOAT_EQ(s.nsfw(), 0.2f);
}

TEST(NsfwPreprocess, AlignCornersBilinear) {
  RgbImage img{2, 1, {0, 0, 0, 255, 255, 255}};
  const auto out = nsfw_preprocess(img, 3);
  EXPECT_FLOAT_EQ(out[0], 0.0f);
  EXPECT_FLOAT_EQ(out[3], 0.5f);  // middle column, halfway
  EXPECT_FLOAT_EQ(out[6], 1.0f);  // corners aligned
}

std::vector<RgbImage> oracle_images() {
  std::vector<RgbImage> out;
  for (const char* cat : {"cat_01_original.jpg", "cat_03_grayscale.jpg", "cat_08_noise.jpg",
                          "cat_09_text_opaque.jpg"}) {
    Thumbnail t;
    if (make_thumbnail(test::read_file(test::cat_image(cat)), {}, t) == DecodeStatus::ok)
      out.push_back(t.sample_frames[0]);
  }
  int taken = 0;
  for (const auto& image : test::archive_images("archives/webrecorder__replayweb.page/mkdocs/site/"
                                                "docs/examples/netpreserve-twitter.warc")) {
    if (!image.mime.starts_with("image/") || taken >= 4) continue;
    Thumbnail t;
    if (make_thumbnail(image.bytes, {}, t) == DecodeStatus::ok && t.width >= 48) {
      out.push_back(t.sample_frames[0]);
      ++taken;
    }
  }
  return out;
}

std::vector<std::array<float, 5>> run_oracle(const std::string& model,
                                             const std::vector<RgbImage>& images) {
  const fs::path dir = strata::testing::scratch_dir();
  std::string command =
      "node '" + (fs::path(STRATA_ANALYZE_TEST_DIR) / "nsfwjs_oracle.js").string() + "' '" +
      (model_dir("mobilenet_v2")->parent_path().parent_path().parent_path() / "node_modules")
          .string() +
      "' " + model;
  for (size_t i = 0; i < images.size(); ++i) {
    const fs::path file = dir / ("img" + std::to_string(i) + ".rgb");
    std::ofstream out(file, std::ios::binary);
    const uint32_t wh[2] = {uint32_t(images[i].width), uint32_t(images[i].height)};
    out.write(reinterpret_cast<const char*>(wh), 8);
    out.write(reinterpret_cast<const char*>(images[i].rgb.data()),
              std::streamsize(images[i].rgb.size()));
    command += " '" + file.string() + "'";
  }
  std::vector<std::array<float, 5>> results;
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(command.c_str(), "r"), pclose);
  char line[4096];
  while (pipe && fgets(line, sizeof line, pipe.get())) {
    if (line[0] != '[') continue;  // tfjs' banner
    const Json j = Json::parse(line, nullptr, false);
    if (!j.is_array() || j.size() != 5) {
      ADD_FAILURE() << "oracle: " << line;
      continue;
    }
    std::array<float, 5> r{};
    for (int c = 0; c < 5; ++c) r[c] = j[c].get<float>();
    results.push_back(r);
  }
  return results;
}

bool node_modules_present() {
  const auto dir = model_dir("mobilenet_v2");
  if (!dir) return false;
  const fs::path modules = dir->parent_path().parent_path().parent_path() / "node_modules";
  return fs::exists(modules / "@tensorflow/tfjs") && fs::exists(modules / "nsfwjs") &&
         std::system("node --version >/dev/null 2>&1") == 0;
}

void expect_agreement(const std::string& variant, const std::string& nsfwjs_name) {
  const auto dir = model_dir(variant);
  ASSERT_TRUE(dir);
  NsfwClassifier classifier(*dir);
  const auto images = oracle_images();
  ASSERT_GE(images.size(), 8u);
  const auto want = run_oracle(nsfwjs_name, images);
  ASSERT_EQ(want.size(), images.size());
  double worst = 0;
  for (size_t i = 0; i < images.size(); ++i) {
    const NsfwScores got = classifier.classify(images[i]);
    for (int c = 0; c < 5; ++c) {
      EXPECT_NEAR(got.p[c], want[i][c], 0.01)
          << variant << " image " << i << " class " << kNsfwClasses[c];
      worst = std::max(worst, double(std::abs(got.p[c] - want[i][c])));
    }
  }
  std::cout << "  " << variant << ": largest difference from nsfwjs " << worst << " over "
            << images.size() << " images\n";
}

// Correctness oracle: nsfwjs itself under Node.js on the same decoded thumbnails (cats of
// the image-hashes suite, images from a real archive) agrees within 0.01 per class.
TEST(NsfwOracle, MobileNetV2MidAgreesWithNsfwjs) {
  STRATA_REQUIRE_SHARED();
  REQUIRE_MODEL(dir, "mobilenet_v2_mid");
  if (!node_modules_present())
    GTEST_SKIP() << "node or node_modules (nsfwjs, @tensorflow/tfjs) absent";
  expect_agreement("mobilenet_v2_mid", "MobileNetV2Mid");
}

TEST(NsfwOracle, MobileNetV2AgreesWithNsfwjs) {
  STRATA_REQUIRE_SHARED();
  REQUIRE_MODEL(dir, "mobilenet_v2");
  if (!node_modules_present())
    GTEST_SKIP() << "node or node_modules (nsfwjs, @tensorflow/tfjs) absent";
  expect_agreement("mobilenet_v2", "MobileNetV2");
}

TEST(Nsfw, CatPhotoIsNeutralAndSafe) {
  STRATA_REQUIRE_SHARED();
  REQUIRE_MODEL(dir, kDefaultNsfwModel);
  NsfwClassifier classifier(*dir);
  EXPECT_EQ(classifier.input_size(), 224);
  Thumbnail t;
  ASSERT_EQ(make_thumbnail(test::read_file(test::cat_image("cat_01_original.jpg")), {}, t),
            DecodeStatus::ok);
  const NsfwScores s = classifier.classify(t.sample_frames[0]);
  float sum = 0;
  for (float v : s.p) sum += v;
  EXPECT_NEAR(sum, 1.0f, 1e-3);
  std::cout << "  cat: drawing " << s.drawing() << " hentai " << s.hentai() << " neutral "
            << s.neutral() << " porn " << s.porn() << " sexy " << s.sexy() << "\n";
  EXPECT_GT(s.neutral(), 0.9f);
  EXPECT_FALSE(hidden_by_safe_search({s, std::nullopt}));
  EXPECT_FALSE(s.is_drawing());
  // A batch gives the same scores as one by one.
  const auto batch = classifier.classify_batch({&t.sample_frames[0], &t.sample_frames[0]});
  ASSERT_EQ(batch.size(), 2u);
  for (int c = 0; c < 5; ++c) EXPECT_NEAR(batch[1].p[c], s.p[c], 1e-5);
}

// InceptionV3 (Keras, 299 px: Conv/BN/Activation, pooling, Concatenate) imports too.
TEST(Nsfw, InceptionV3AgreesWithMobileNetOnCat) {
  STRATA_REQUIRE_SHARED();
  REQUIRE_MODEL(dir, "inception_v3");
  NsfwClassifier classifier(*dir);
  EXPECT_EQ(classifier.input_size(), 299);
  Thumbnail t;
  ASSERT_EQ(make_thumbnail(test::read_file(test::cat_image("cat_01_original.jpg")), {}, t),
            DecodeStatus::ok);
  EXPECT_GT(classifier.classify(t.sample_frames[0]).neutral(), 0.9f);
}

// XNNPACK (the default backend) gives OpenCV DNN's scores, which agree with nsfwjs (above),
// on the same images; InceptionV3 (concatenations) falls back to OpenCV DNN.
void expect_backends_agree(const std::string& variant) {
  const auto dir = model_dir(variant);
  ASSERT_TRUE(dir);
  const TfjsModel model = load_tfjs_model(*dir);
  const auto xnnpack = load_network(model, NetBackend::xnnpack);
  const auto opencv = load_network(model, NetBackend::opencv);
  const auto images = oracle_images();
  ASSERT_GE(images.size(), 8u);
  double worst = 0;
  for (const RgbImage& image : images) {
    const std::vector<float> input = nsfw_preprocess(image, xnnpack->input_size());
    const auto a = xnnpack->forward(input, 1), b = opencv->forward(input, 1);
    ASSERT_EQ(a.size(), 5u);
    ASSERT_EQ(b.size(), 5u);
    for (int c = 0; c < 5; ++c) worst = std::max(worst, double(std::abs(a[c] - b[c])));
  }
  EXPECT_LT(worst, 1e-4) << variant;
  std::cout << "  " << variant << ": XNNPACK vs OpenCV DNN, largest difference " << worst << "\n";
}

TEST(NsfwBackends, XnnpackAgreesWithOpenCvDnn) {
  STRATA_REQUIRE_SHARED();
  REQUIRE_MODEL(dir, "mobilenet_v2");
  expect_backends_agree("mobilenet_v2");
  if (model_dir("mobilenet_v2_mid")) expect_backends_agree("mobilenet_v2_mid");
}

TEST(Nsfw, MissingModelFolderThrows) {
  EXPECT_THROW(NsfwClassifier(strata::testing::scratch_dir() / "none"), std::runtime_error);
}

}  // namespace
}  // namespace strata::analyze
