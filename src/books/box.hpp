#pragma once
// Pixel rectangles of a scanned page, as Abbyy writes them: left, top, right, bottom with
// right and bottom exclusive (a block l=0 r=1000 is 1,000 pixels wide).
#include <algorithm>

namespace strata::books {

struct Box {
  int l = 0, t = 0, r = 0, b = 0;
  int width() const { return r - l; }
  int height() const { return b - t; }
  long long area() const {
    return static_cast<long long>(std::max(0, width())) * std::max(0, height());
  }
  bool empty() const { return r <= l || b <= t; }
  bool operator==(const Box&) const = default;
};

inline Box unite(const Box& a, const Box& b) {
  return {std::min(a.l, b.l), std::min(a.t, b.t), std::max(a.r, b.r), std::max(a.b, b.b)};
}

inline Box clip(const Box& box, int width, int height) {
  return {std::clamp(box.l, 0, width), std::clamp(box.t, 0, height), std::clamp(box.r, 0, width),
          std::clamp(box.b, 0, height)};
}

// True when the boxes overlap or lie within `gap` pixels of each other on both axes.
inline bool touches(const Box& a, const Box& b, int gap) {
  return a.l <= b.r + gap && b.l <= a.r + gap && a.t <= b.b + gap && b.t <= a.b + gap;
}

}  // namespace strata::books
