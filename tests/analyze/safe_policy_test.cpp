#include "analyze/safe_policy.hpp"

#include <gtest/gtest.h>

#include <functional>

namespace strata::analyze {
namespace {

SafeSearchInput scores(std::array<float, 5> p, std::optional<float> detail = 0.3f) {
  return {NsfwScores{p}, detail};
}

RgbImage image(int w, int h, const std::function<uint8_t(int, int)>& grey) {
  RgbImage img{w, h, std::vector<uint8_t>(size_t(w) * h * 3)};
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      for (int c = 0; c < 3; ++c) img.rgb[(size_t(y) * w + x) * 3 + c] = grey(y, x);
  return img;
}

TEST(SafePolicy, ThresholdsOnTheClassProbabilities) {
  const SafePolicy p = kSafePolicy;
  EXPECT_FALSE(hidden_by_safe_search(scores({0.01f, 0.0f, 0.97f, 0.01f, 0.01f})));
  // Arquivo raised porn + hentai 0.4 to 0.51 (hidden): a painting's typical scores.
  EXPECT_FALSE(hidden_by_safe_search(scores({0.1f, 0.1f, 0.2f, 0.3f, 0.3f})));
  EXPECT_TRUE(
      hidden_by_safe_search(scores({0.0f, 0.0f, 1.0f - p.explicit_min, p.explicit_min, 0})));
  EXPECT_FALSE(hidden_by_safe_search(
      scores({0.0f, 0.0f, 1.01f - p.explicit_min, p.explicit_min - 0.01f, 0})));
  EXPECT_TRUE(hidden_by_safe_search(scores({0.0f, p.explicit_min, 1.0f - p.explicit_min, 0, 0})));
  EXPECT_TRUE(
      hidden_by_safe_search(scores({0.0f, 0.0f, 1.0f - p.with_sexy_min, 0, p.with_sexy_min})));
  // Mixed: below explicit_min alone, at with_sexy_min with sexy.
  EXPECT_TRUE(hidden_by_safe_search(scores({0.0f, 0.0f, 0.08f, 0.62f, 0.3f})));
  EXPECT_FALSE(hidden_by_safe_search(scores({0.0f, 0.0f, 0.3f, 0.6f, 0.1f})));
}

TEST(SafePolicy, ScoreIsOnTheIndexScaleWithAMarginAroundTheThreshold) {
  for (float porn = 0; porn <= 1.0f; porn += 0.01f) {
    const auto in = scores({0, 0, 1 - porn, porn, 0});
    const float score = safe_search_score(in);
    EXPECT_GE(score, 0.0f);
    EXPECT_LE(score, 1.0f);
    EXPECT_TRUE(score <= 0.48f || score >= 0.5f) << score;
    EXPECT_EQ(score > kSafeSearchThreshold, hidden_by_safe_search(in));
    // The index compares the value as a double with 0.49.
    EXPECT_EQ(double(score) > 0.49, hidden_by_safe_search(in));
  }
  EXPECT_GT(safe_search_score(scores({0, 0, 0, 1, 0})),
            safe_search_score(scores({0, 0, 0.1f, 0.9f, 0})));  // more explicit, higher
}

TEST(SafePolicy, FlatAndTinyImagesAreNeverHidden) {
  EXPECT_FALSE(hidden_by_safe_search(scores({0, 0, 0, 1, 0}, 0.0f)));
  // Records from before detail was measured: the class thresholds alone decide.
  EXPECT_TRUE(hidden_by_safe_search(scores({0, 0, 0, 1, 0}, std::nullopt)));
  SafeSearchInput icon = scores({0, 0, 0, 1, 0});
  icon.width = 34;
  icon.height = 26;
  EXPECT_FALSE(hidden_by_safe_search(icon));
  icon.width = kSafePolicy.min_side;
  EXPECT_TRUE(hidden_by_safe_search(icon));
}

TEST(SafePolicy, DetailSeparatesFlatGraphicsFromTexture) {
  EXPECT_EQ(image_detail(image(50, 40, [](int, int) { return 128; })), 0.0f);
  EXPECT_EQ(image_detail(image(200, 20, [](int, int x) { return uint8_t(x); })), 0.0f);
  EXPECT_NEAR(image_detail(image(40, 40, [](int y, int x) { return (x + y) % 2 ? 255 : 0; })), 1.0f,
              1e-6);
  EXPECT_EQ(image_detail(RgbImage{}), 0.0f);
  EXPECT_EQ(image_detail(image(1, 1, [](int, int) { return 3; })), 0.0f);
}

TEST(SafePolicy, AnimationKeepsTheMostUnsafeFrame) {
  const std::vector<SafeSearchInput> frames = {
      scores({0, 0, 1, 0, 0}), scores({0, 0.2f, 0, 0.8f, 0}), scores({0, 0, 0.5f, 0.5f, 0})};
  EXPECT_EQ(most_unsafe_frame(frames), 1u);  // not the last frame (Arquivo's bug)
  EXPECT_EQ(most_unsafe_frame({}), 0u);
}

}  // namespace
}  // namespace strata::analyze
