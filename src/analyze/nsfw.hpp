#pragma once
// NSFW classification with the nsfwjs models (GantMan's NSFW model) run by XNNPACK (OpenCV DNN
// for the models XNNPACK cannot run).
// Preprocessing matches nsfwjs: RGB / 255, bilinear resize with align_corners to the model's
// square input (skipped when already that size). Class order: drawing, hentai, neutral,
// porn, sexy. Arquivo's rule (reference §6): nsfw = porn + hentai, raised to 0.51 when below
// 0.5 but above both neutral and drawing; Arquivo's safe search hid nsfw > 0.49. Strata's
// safe search decides with analyze/safe_policy.hpp instead.
#include <array>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "analyze/image.hpp"
#include "analyze/net_builder.hpp"

namespace strata::analyze {

inline constexpr std::array<const char*, 5> kNsfwClasses = {"drawing", "hentai", "neutral", "porn",
                                                            "sexy"};
// Safe search hides images whose safe_search_score() (analyze/safe_policy.hpp) is above.
inline constexpr float kSafeSearchThreshold = 0.49f;

struct NsfwScores {
  std::array<float, 5> p{};  // in kNsfwClasses order
  float drawing() const { return p[0]; }
  float hentai() const { return p[1]; }
  float neutral() const { return p[2]; }
  float porn() const { return p[3]; }
  float sexy() const { return p[4]; }
  // Arquivo's stored "safe" value (an NSFW score: higher = less safe).
  float nsfw() const;
  // Drawing/illustration rather than photo: drawing or hentai is the top class.
  bool is_drawing() const;
};

// Model variants shipped by nsfwjs (folders of models/nsfwjs after scripts/setup-npm):
// "mobilenet_v2" (Keras MobileNetV2 width 1.0, 224 px; nsfwjs' own default) is the default.
// "mobilenet_v2_mid" (TF graph model, MobileNetV2 width 1.4, 224 px: the architecture of
// Arquivo's mobilenet_v2_140_224) loads and matches nsfwjs, but nsfwjs' copy of it scores an
// ordinary cat photo as drawing 0.57 / porn 0.42 where the other two say neutral > 0.99, so
// it is not the default (docs/analysis.md). "inception_v3" (299 px) is selectable.
inline constexpr const char* kDefaultNsfwModel = "mobilenet_v2";

// $STRATA_MODELS/nsfwjs, else the first models/nsfwjs found in the working folder or its
// parents, else in the executable's folder or its parents (a checkout's root after
// scripts/setup-npm); nullopt when absent.
std::optional<std::filesystem::path> find_nsfw_models();

class NsfwClassifier {
 public:
  // `folder` holds a TF.js model.json and its shards. Throws std::runtime_error.
  explicit NsfwClassifier(const std::filesystem::path& folder);
  ~NsfwClassifier();
  NsfwClassifier(const NsfwClassifier&) = delete;
  NsfwClassifier& operator=(const NsfwClassifier&) = delete;

  int input_size() const;
  NsfwScores classify(const RgbImage& image);
  // Several images (an animation's frames) at once. With `pooled`, also each image's pooled
  // values (analyze/embedding.hpp) from the same forward pass, empty for a model without.
  std::vector<NsfwScores> classify_batch(const std::vector<const RgbImage*>& images,
                                         std::vector<std::vector<float>>* pooled = nullptr);

 private:
  std::unique_ptr<Network> net_;
};

// nsfwjs' preprocessing: HWC uint8 RGB -> size x size float RGB in [0,1], HWC order, by
// tf.image.resizeBilinear(alignCorners = true).
std::vector<float> nsfw_preprocess(const RgbImage& image, int size);

}  // namespace strata::analyze
