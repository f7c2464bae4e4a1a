#pragma once
// Synthetic but recognisable picture content: a gradient background, a few filled shapes and
// rows of "text-like" blocks, all placed in coordinates relative to the picture size. The same
// look rendered at two sizes gives a resized near-duplicate, so thumbnails and perceptual
// hashes of generated images behave like those of real ones.
#include <cstdint>
#include <string>
#include <vector>

namespace strata::sample {

struct Rgb {
  uint8_t r = 0, g = 0, b = 0;
};

// 8-bit RGB pixels, row-major, no padding.
struct Canvas {
  int width = 0;
  int height = 0;
  std::vector<uint8_t> pixels;  // width * height * 3
};

enum class ShapeKind { rect, ellipse, triangle, text_block };

struct Shape {
  ShapeKind kind = ShapeKind::rect;
  float x0 = 0, y0 = 0, x1 = 1, y1 = 1;  // bounding box, fractions of the picture
  Rgb color;
};

// Everything needed to draw a picture at any size; derived from a seed.
struct Concept {
  uint64_t seed = 0;
  Rgb top, bottom;            // vertical gradient
  std::vector<Shape> shapes;  // drawn in order
};

Concept make_concept(uint64_t seed);

// Renders `look` at width x height. `frame` shifts the shapes (animation frames).
Canvas render(const Concept& look, int width, int height, int frame = 0);

// A flat single-colour canvas (spacers, huge images).
Canvas solid(int width, int height, Rgb color);

}  // namespace strata::sample
