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
  uint8_t* p = c.pixels.data();
  for (int y = 0; y < height; ++y) {
    float fy = (static_cast<float>(y) + 0.5f) / static_cast<float>(height);
    Rgb bg{static_cast<uint8_t>(look.top.r + (look.bottom.r - look.top.r) * fy),
           static_cast<uint8_t>(look.top.g + (look.bottom.g - look.top.g) * fy),
           static_cast<uint8_t>(look.top.b + (look.bottom.b - look.top.b) * fy)};
    for (int x = 0; x < width; ++x, p += 3) {
      float fx = (static_cast<float>(x) + 0.5f) / static_cast<float>(width);
      Rgb color = bg;
      for (const Shape& s : look.shapes) {
        float sx = fx - shift;
        if (sx < 0) sx += 1.0f;
        if (inside(s, sx, fy)) color = s.color;
      }
      p[0] = color.r;
      p[1] = color.g;
      p[2] = color.b;
    }
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
