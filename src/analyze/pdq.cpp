#include "analyze/pdq.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <numbers>
#include <vector>

#include "analyze/hex.hpp"

namespace strata::analyze {
namespace {

// The reference computes in single precision; so do we, to give its bits.
constexpr float kLumaR = 0.299f, kLumaG = 0.587f, kLumaB = 0.114f;
constexpr int kDownsample = 64;
constexpr int kDctSide = 16;
constexpr int kMinSide = 5;
constexpr int kJaroszPasses = 2;

int jarosz_window(int old_side) {
  return (old_side + 2 * kDownsample - 1) / (2 * kDownsample);
}

// The reference's box1DFloat: a running mean whose window shrinks at both ends. `in` is
// contiguous; `out` is written every `stride` floats.
void box_1d(const float* in, float* out, int length, int stride, int window) {
  const int half = (window + 2) / 2;
  float sum = 0.0f;
  int count = 0, left = 0, right = 0;
  auto write = [&](float value) {
    *out = value;
    out += stride;
  };
  for (int i = 0; i < half - 1; ++i, ++count) sum += in[right++];
  for (int i = 0; i < window - half + 1; ++i) {
    sum += in[right++];
    write(sum / static_cast<float>(++count));
  }
  for (int i = 0; i < length - window; ++i) {
    sum += in[right++];
    sum -= in[left++];
    write(sum / static_cast<float>(count));
  }
  for (int i = 0; i < half - 1; ++i) {
    sum -= in[left++];
    write(sum / static_cast<float>(--count));
  }
}

// Both passes in place over one picture-sized buffer (the reference uses two): each line is
// copied out first, so the sums are the same.
void jarosz_filter(std::vector<float>& luma, int rows, int cols) {
  const int along_rows = jarosz_window(cols), along_cols = jarosz_window(rows);
  std::vector<float> line(static_cast<size_t>(std::max(rows, cols)));
  for (int pass = 0; pass < kJaroszPasses; ++pass) {
    for (int r = 0; r < rows; ++r) {
      float* row = luma.data() + static_cast<size_t>(r) * cols;
      std::copy_n(row, cols, line.begin());
      box_1d(line.data(), row, cols, 1, along_rows);
    }
    for (int c = 0; c < cols; ++c) {
      for (int r = 0; r < rows; ++r) line[r] = luma[static_cast<size_t>(r) * cols + c];
      box_1d(line.data(), luma.data() + c, rows, cols, along_cols);
    }
  }
}

using Block64 = std::array<float, kDownsample * kDownsample>;

Block64 decimate(const std::vector<float>& luma, int rows, int cols) {
  Block64 out{};
  for (int i = 0; i < kDownsample; ++i) {
    const auto r = static_cast<size_t>(((i + 0.5) * rows) / kDownsample);
    for (int j = 0; j < kDownsample; ++j) {
      const auto c = static_cast<size_t>(((j + 0.5) * cols) / kDownsample);
      out[i * kDownsample + j] = luma[r * cols + c];
    }
  }
  return out;
}

// Sum of the absolute neighbour differences in percent of full scale, scaled to 0-100.
int quality_of(const Block64& b) {
  int gradients = 0;
  auto add = [&](float u, float v) {
    const int d = static_cast<int>(((u - v) * 100) / 255);
    gradients += std::abs(d);
  };
  for (int i = 0; i + 1 < kDownsample; ++i)
    for (int j = 0; j < kDownsample; ++j) add(b[i * kDownsample + j], b[(i + 1) * kDownsample + j]);
  for (int i = 0; i < kDownsample; ++i)
    for (int j = 0; j + 1 < kDownsample; ++j)
      add(b[i * kDownsample + j], b[i * kDownsample + j + 1]);
  return std::min(gradients / 90, 100);
}

using DctMatrix = std::array<float, kDctSide * kDownsample>;

// Rows 1..16 of the orthonormal 64-point DCT-II (row 0, the mean, is skipped).
const DctMatrix& dct_matrix() {
  static const DctMatrix matrix = [] {
    DctMatrix m{};
    const auto scale = static_cast<float>(std::sqrt(2.0 / kDownsample));
    for (int i = 0; i < kDctSide; ++i)
      for (int j = 0; j < kDownsample; ++j)
        m[i * kDownsample + j] = static_cast<float>(
            scale * std::cos((std::numbers::pi / 2 / kDownsample) * (i + 1) * (2 * j + 1)));
    return m;
  }();
  return matrix;
}

using Block16 = std::array<float, kDctSide * kDctSide>;

Block16 dct_64_to_16(const Block64& a) {
  const DctMatrix& d = dct_matrix();
  std::array<float, kDctSide * kDownsample> t{};
  for (int i = 0; i < kDctSide; ++i)
    for (int j = 0; j < kDownsample; ++j) {
      float sum = 0.0f;
      for (int k = 0; k < kDownsample; ++k) sum += d[i * kDownsample + k] * a[k * kDownsample + j];
      t[i * kDownsample + j] = sum;
    }
  Block16 b{};
  for (int i = 0; i < kDctSide; ++i)
    for (int j = 0; j < kDctSide; ++j) {
      float sum = 0.0f;
      for (int k = 0; k < kDownsample; ++k) sum += t[i * kDownsample + k] * d[j * kDownsample + k];
      b[i * kDctSide + j] = sum;
    }
  return b;
}

// Torben's median as the reference returns it: the lower median (128th of 256).
float lower_median(Block16 values) {
  auto mid = values.begin() + (values.size() - 1) / 2;
  std::nth_element(values.begin(), mid, values.end());
  return *mid;
}

PdqHash bits_over_median(const Block16& dct) {
  const float median = lower_median(dct);
  PdqHash hash{};
  for (int k = 0; k < kDctSide * kDctSide; ++k)
    if (dct[k] > median) hash[3 - k / 64] |= uint64_t{1} << (k % 64);
  return hash;
}

}  // namespace

PdqResult pdq_rgb(const uint8_t* rgb, int width, int height) {
  if (rgb == nullptr || width < kMinSide || height < kMinSide) return {};
  const size_t pixels = static_cast<size_t>(width) * height;
  std::vector<float> luma(pixels);
  for (size_t i = 0; i < pixels; ++i, rgb += 3)
    luma[i] = kLumaR * rgb[0] + kLumaG * rgb[1] + kLumaB * rgb[2];
  jarosz_filter(luma, height, width);
  const Block64 small = decimate(luma, height, width);
  return {bits_over_median(dct_64_to_16(small)), quality_of(small)};
}

int hamming_distance(const PdqHash& a, const PdqHash& b) {
  int d = 0;
  for (size_t i = 0; i < a.size(); ++i) d += std::popcount(a[i] ^ b[i]);
  return d;
}

std::string pdq_hex(const PdqHash& hash) {
  std::string out(64, '0');
  for (size_t limb = 0; limb < hash.size(); ++limb) {
    uint64_t v = hash[limb];
    for (int i = 15; i >= 0; --i, v >>= 4) out[limb * 16 + i] = kHexDigits[v & 0xf];
  }
  return out;
}

std::optional<PdqHash> pdq_from_hex(std::string_view hex) {
  if (hex.size() != 64) return std::nullopt;
  PdqHash hash{};
  for (size_t i = 0; i < hex.size(); ++i) {
    const char c = hex[i];
    const int d = hex_value(c);
    if (d < 0) return std::nullopt;
    hash[i / 16] = (hash[i / 16] << 4) | static_cast<uint64_t>(d);
  }
  return hash;
}

}  // namespace strata::analyze
