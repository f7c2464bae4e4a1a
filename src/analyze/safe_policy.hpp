#pragma once
// Safe search's decision (docs/analysis.md, "Safe search calibration"): which classified
// images the API hides by default, from the five nsfwjs class probabilities and how much
// detail the classified frame has. Arquivo hid porn + hentai > 0.49 (NsfwScores::nsfw()),
// which hid paintings, engravings and flat graphics; the thresholds below were chosen on the
// labelled set bench/analyze/safe_search_set.tsv (`strata safe-search-eval`).
#include <optional>

#include "analyze/image.hpp"
#include "analyze/nsfw.hpp"

namespace strata::analyze {

struct SafePolicy {
  float explicit_min = 0.8f;   // porn + hentai at or above: hidden
  float with_sexy_min = 0.9f;  // porn + hentai + sexy at or above: hidden
  float min_detail = 0.02f;    // detail below: never hidden (flat colour, gradients, bars)
  int min_side = 48;           // longer side (px) below: never hidden (icons, pictograms)
};
inline constexpr SafePolicy kSafePolicy{};

// What safe search decides from: the scores, the classified frame's detail (absent in
// records written before detail was measured: the detail rule then does not apply) and the
// image's size (0 = unknown).
struct SafeSearchInput {
  NsfwScores scores;
  std::optional<float> detail;
  int width = 0, height = 0;
};

// The value safe search filters on (index value slot `safe`): in [0, 1], above
// kSafeSearchThreshold (0.49) exactly when `policy` hides the image; higher = less safe.
// Hidden images score 0.5..1, shown ones 0..0.48 (a margin, so float rounding never moves
// an image across 0.49).
float safe_search_score(const SafeSearchInput& input, const SafePolicy& policy = kSafePolicy);
bool hidden_by_safe_search(const SafeSearchInput& input, const SafePolicy& policy = kSafePolicy);

// Share of neighbouring pixel pairs (right and below) whose luma differs by more than a
// JPEG-noise margin: 0 for single-colour images and smooth gradients, ~0.1-0.6 for photos,
// drawings and text. Cheap: one pass over the (thumbnail-sized) frame.
float image_detail(const RgbImage& image);

// For animations: the index of the frame safe search scores highest.
size_t most_unsafe_frame(const std::vector<SafeSearchInput>& frames,
                         const SafePolicy& policy = kSafePolicy);

}  // namespace strata::analyze
