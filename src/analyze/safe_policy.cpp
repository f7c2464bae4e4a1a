#include "analyze/safe_policy.hpp"

#include <algorithm>
#include <cstdlib>

namespace strata::analyze {

namespace {

constexpr float kShownMax = 0.48f;   // highest score of a shown image
constexpr float kHiddenMin = 0.5f;   // lowest score of a hidden image
constexpr int kLumaNoiseMargin = 8;  // luma steps (of 255) that JPEG noise and gradients make

// Maps a probability onto the score scale so that `threshold` lands on kHiddenMin: below it
// 0..kShownMax, at or above it kHiddenMin..1, monotonic in both parts.
float scaled(float value, float threshold) {
  if (value < threshold) return kShownMax * value / threshold;
  if (threshold >= 1.0f) return kHiddenMin;
  return kHiddenMin + (1.0f - kHiddenMin) * (value - threshold) / (1.0f - threshold);
}

int luma(const uint8_t* px) {
  return (299 * px[0] + 587 * px[1] + 114 * px[2]) / 1000;
}

}  // namespace

float safe_search_score(const SafeSearchInput& in, const SafePolicy& policy) {
  const NsfwScores& s = in.scores;
  const float explicit_mass = s.porn() + s.hentai();
  const float score = std::clamp(std::max(scaled(explicit_mass, policy.explicit_min),
                                          scaled(explicit_mass + s.sexy(), policy.with_sexy_min)),
                                 0.0f, 1.0f);
  // Scores these images cannot carry: a flat frame has nothing to recognise, an icon is
  // enlarged several times to the model's 224 px input.
  const bool flat = in.detail && *in.detail < policy.min_detail;
  const bool tiny =
      std::max(in.width, in.height) > 0 && std::max(in.width, in.height) < policy.min_side;
  return flat || tiny ? std::min(score, kShownMax) : score;
}

bool hidden_by_safe_search(const SafeSearchInput& input, const SafePolicy& policy) {
  return safe_search_score(input, policy) > kSafeSearchThreshold;
}

float image_detail(const RgbImage& image) {
  const int w = image.width, h = image.height;
  if (w <= 0 || h <= 0 || image.rgb.size() < size_t(w) * h * 3) return 0.0f;
  const auto at = [&](int y, int x) { return luma(&image.rgb[(size_t(y) * w + x) * 3]); };
  size_t pairs = 0, edges = 0;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const int here = at(y, x);
      if (x + 1 < w) {
        ++pairs;
        edges += std::abs(at(y, x + 1) - here) > kLumaNoiseMargin;
      }
      if (y + 1 < h) {
        ++pairs;
        edges += std::abs(at(y + 1, x) - here) > kLumaNoiseMargin;
      }
    }
  return pairs ? float(edges) / float(pairs) : 0.0f;
}

size_t most_unsafe_frame(const std::vector<SafeSearchInput>& frames, const SafePolicy& policy) {
  size_t worst = 0;
  for (size_t i = 1; i < frames.size(); ++i)
    if (safe_search_score(frames[i], policy) > safe_search_score(frames[worst], policy)) worst = i;
  return worst;
}

}  // namespace strata::analyze
