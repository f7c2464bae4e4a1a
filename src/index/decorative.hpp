#pragma once
// Decorative and layout images: spacers, rules and bars, 1-pixel and tracking images, tiny
// icons, emoji. Decided at index time from what the merged document says (size, URL, alt),
// never from the pixels; the index marks them with a boolean term (schema.hpp, prefix
// `decorative`) and searches hide them unless asked (docs/search.md, "Image priors").
// Never throws.
#include <string>

#include "merge/document.hpp"

namespace strata::index {

inline constexpr int kThinSide = 2;   // a side this small: spacer, rule, tracking pixel
inline constexpr int kIconSide = 32;  // both sides this small: icon, favicon, bullet
// Bars and strips: at most kBarThickness thick, and wider than kBarAspect (horizontal) or
// taller than kStripAspect (vertical) times that. Wide logos and banners of real pages reach
// ~8:1 (468x60, 580x69, 728x90), so horizontal bars start at 10:1; page-layout slices (column
// edges, sidebar strips: 72x499) are the tall ones.
inline constexpr int kBarThickness = 100;
inline constexpr double kBarAspect = 10;
inline constexpr double kStripAspect = 6;
inline constexpr int kPictographSide = 128;  // emoji: alt of pictographs only, sides up to this
// Pictograms and badges named so by their alt ("picto", "icon"): sides up to this (the wine
// guide's lodging badges are 326x116); a larger image is a picture whatever its alt says.
inline constexpr int kBadgeSide = 400;

// Why an image is decorative ("bar", "spacer", "icon", "emoji", "layout-name", "icon-alt"),
// or "".
std::string decorative_reason(const merge::ImageDocument& doc);

}  // namespace strata::index
