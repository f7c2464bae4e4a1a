#include "sample/canvas.hpp"

#include <algorithm>

#include "sample/rng.hpp"

namespace strata::sample {
namespace {

Rgb random_color(Rng& rng) {
  return Rgb{static_cast<uint8_t>(rng.below(256)), static_cast<uint8_t>(rng.below(256)),
             static_cast<uint8_t>(rng.below(256))};
}

float fraction(Rng& rng) {
  return static_cast<float>(rng.below(1000)) / 1000.0f;
}

Shape random_shape(Rng& rng) {
  Shape s;
  s.kind = static_cast<ShapeKind>(rng.below(4));
  float w = 0.15f + 0.5f * fraction(rng);
  float h =
      s.kind == ShapeKind::text_block ? 0.08f + 0.3f * fraction(rng) : 0.15f + 0.5f * fraction(rng);
  s.x0 = fraction(rng) * (1.0f - w);
  s.y0 = fraction(rng) * (1.0f - h);
  s.x1 = s.x0 + w;
  s.y1 = s.y0 + h;
  s.color = random_color(rng);
  return s;
}

bool inside(const Shape& s, float x, float y) {
  if (x < s.x0 || x >= s.x1 || y < s.y0 || y >= s.y1) return false;
  float u = (x - s.x0) / (s.x1 - s.x0);
  float v = (y - s.y0) / (s.y1 - s.y0);
  switch (s.kind) {
    case ShapeKind::rect:
      return true;
    case ShapeKind::ellipse:
      return (u - 0.5f) * (u - 0.5f) + (v - 0.5f) * (v - 0.5f) <= 0.25f;
    case ShapeKind::triangle:
      return u >= 0.5f * (1.0f - v) && u <= 0.5f * (1.0f + v);
    case ShapeKind::text_block: {
      // Four lines of "words": dark blocks separated by gaps.
      float line = v * 4.0f;
      if (line - static_cast<float>(static_cast<int>(line)) > 0.6f) return false;
      int word = static_cast<int>(u * 7.0f + static_cast<float>(static_cast<int>(line)) * 0.37f);
      return (word % 3) != 2;
    }
  }
  return false;
}

void paint(uint8_t* row, int x, Rgb color) {
  uint8_t* p = row + static_cast<size_t>(x) * 3;
  p[0] = color.r;
  p[1] = color.g;
  p[2] = color.b;
}

// Pixel columns [first, last) that can hold `s` on an unshifted row: its box widened by a
// pixel on each side, so float rounding never drops a covered pixel (inside() decides).
std::pair<int, int> column_span(const Shape& s, int width) {
  float w = static_cast<float>(width);
  int first = std::max(0, static_cast<int>(s.x0 * w) - 1);
  int last = std::min(width, static_cast<int>(s.x1 * w) + 2);
  return {first, std::max(first, last)};
}

// One row, painted shape by shape in drawing order (the last shape covering a pixel wins, as
// when each pixel tests every shape); shifted frames wrap around, so they scan the whole row.
void render_row(const Concept& look, int width, float fy, float shift, uint8_t* row) {
  Rgb bg{static_cast<uint8_t>(look.top.r + (look.bottom.r - look.top.r) * fy),
         static_cast<uint8_t>(look.top.g + (look.bottom.g - look.top.g) * fy),
         static_cast<uint8_t>(look.top.b + (look.bottom.b - look.top.b) * fy)};
  for (int x = 0; x < width; ++x) paint(row, x, bg);
  for (const Shape& s : look.shapes) {
    if (fy < s.y0 || fy >= s.y1) continue;
    auto [first, last] = shift == 0.0f ? column_span(s, width) : std::pair{0, width};
    for (int x = first; x < last; ++x) {
      float sx = (static_cast<float>(x) + 0.5f) / static_cast<float>(width) - shift;
      if (sx < 0) sx += 1.0f;
      if (inside(s, sx, fy)) paint(row, x, s.color);
    }
  }
}

}  // namespace

Concept make_concept(uint64_t seed) {
  Rng rng = Rng::derive(seed, "look");
  Concept c;
  c.seed = seed;
  c.top = random_color(rng);
  c.bottom = random_color(rng);
  int n = rng.range(2, 6);
  for (int i = 0; i < n; ++i) c.shapes.push_back(random_shape(rng));
  return c;
}

Canvas render(const Concept& look, int width, int height, int frame) {
  Canvas c{width, height, std::vector<uint8_t>(static_cast<size_t>(width) * height * 3)};
  float shift = 0.07f * static_cast<float>(frame);
  for (int y = 0; y < height; ++y) {
    float fy = (static_cast<float>(y) + 0.5f) / static_cast<float>(height);
    render_row(look, width, fy, shift, c.pixels.data() + static_cast<size_t>(y) * width * 3);
  }
  return c;
}

Canvas solid(int width, int height, Rgb color) {
  Canvas c{width, height, std::vector<uint8_t>(static_cast<size_t>(width) * height * 3)};
  for (size_t i = 0; i < c.pixels.size(); i += 3) {
    c.pixels[i] = color.r;
    c.pixels[i + 1] = color.g;
    c.pixels[i + 2] = color.b;
  }
  return c;
}

}  // namespace strata::sample
