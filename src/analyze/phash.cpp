#include "analyze/phash.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <numbers>
#include <vector>

#include "analyze/hex.hpp"

namespace strata::analyze {
namespace {

constexpr int kSize = 32;
constexpr double kSupport = 3.0;

double sinc(double x) {
  if (x == 0.0) return 1.0;
  const double px = std::numbers::pi * x;
  return std::sin(px) / px;
}

double lanczos(double x) {
  return (x >= -kSupport && x < kSupport) ? sinc(x) * sinc(x / kSupport) : 0.0;
}

struct Taps {
  int first = 0;
  std::vector<double> weights;
};

// Pillow's precompute_coeffs (libImaging/Resample.c) for one axis, in double precision.
std::vector<Taps> lanczos_taps(int in_size, int out_size) {
  const double scale = static_cast<double>(in_size) / out_size;
  const double filter_scale = std::max(scale, 1.0);
  const double support = kSupport * filter_scale;
  std::vector<Taps> taps(out_size);
  for (int o = 0; o < out_size; ++o) {
    const double center = (o + 0.5) * scale;
    const int lo = std::max(0, static_cast<int>(center - support + 0.5));
    const int hi = std::min(in_size, static_cast<int>(center + support + 0.5));
    Taps& t = taps[o];
    t.first = lo;
    double total = 0.0;
    for (int x = lo; x < hi; ++x) {
      t.weights.push_back(lanczos((x - center + 0.5) / filter_scale));
      total += t.weights.back();
    }
    if (total != 0.0)
      for (double& w : t.weights) w /= total;
  }
  return taps;
}

double clamp_round(double v) {
  return std::clamp(std::round(v), 0.0, 255.0);
}

using Channel = std::array<double, kSize * kSize>;

// Pillow's horizontal pass for R, G and B together: one read of each input row (the cost is
// about 6 * width / 32 taps per output pixel, linear in the input's pixels), the same sums.
std::array<std::vector<double>, 3> resize_rows(const uint8_t* rgb, int w, int h,
                                               const std::vector<Taps>& tx) {
  std::array<std::vector<double>, 3> rows;
  for (auto& r : rows) r.resize(static_cast<size_t>(h) * kSize);
  for (int y = 0; y < h; ++y) {
    const uint8_t* line = rgb + static_cast<size_t>(y) * w * 3;
    for (int x = 0; x < kSize; ++x) {
      const uint8_t* p = line + static_cast<size_t>(tx[x].first) * 3;
      const double* weight = tx[x].weights.data();
      const size_t n = tx[x].weights.size();
      double r = 0.0, g = 0.0, b = 0.0;
      for (size_t k = 0; k < n; ++k, p += 3) {
        r += p[0] * weight[k];
        g += p[1] * weight[k];
        b += p[2] * weight[k];
      }
      const size_t at = static_cast<size_t>(y) * kSize + x;
      rows[0][at] = clamp_round(r);
      rows[1][at] = clamp_round(g);
      rows[2][at] = clamp_round(b);
    }
  }
  return rows;
}

// Pillow's vertical pass of one channel's rows to 32x32.
Channel resize_columns(const std::vector<double>& rows, const std::vector<Taps>& ty) {
  Channel out{};
  for (int y = 0; y < kSize; ++y)
    for (int x = 0; x < kSize; ++x) {
      double sum = 0.0;
      for (size_t k = 0; k < ty[y].weights.size(); ++k)
        sum += ty[y].weights[k] * rows[(ty[y].first + k) * kSize + x];
      out[y * kSize + x] = clamp_round(sum);
    }
  return out;
}

using DctTable = std::array<double, kSize * kSize>;

// cos(pi / 2N * (2i + 1) * k) at [k * N + i]: computed once, not 2 * 32^3 times per hash.
const DctTable& dct_cosines() {
  static const DctTable table = [] {
    DctTable t{};
    for (int k = 0; k < kSize; ++k)
      for (int i = 0; i < kSize; ++i)
        t[k * kSize + i] = std::cos(std::numbers::pi / (2.0 * kSize) * (2 * i + 1) * k);
    return t;
  }();
  return table;
}

std::array<double, kSize> dct_1d(const std::array<double, kSize>& x) {
  const DctTable& cosines = dct_cosines();
  std::array<double, kSize> out{};
  for (int k = 0; k < kSize; ++k) {
    double sum = 0.0;
    for (int i = 0; i < kSize; ++i) sum += x[i] * cosines[k * kSize + i];
    out[k] = (k == 0 ? std::sqrt(1.0 / kSize) : std::sqrt(2.0 / kSize)) * sum;
  }
  return out;
}

std::array<double, kSize * kSize> dct_2d(const std::array<double, kSize * kSize>& in) {
  std::array<double, kSize * kSize> tmp{}, out{};
  std::array<double, kSize> v{};
  for (int r = 0; r < kSize; ++r) {
    std::copy_n(in.begin() + r * kSize, kSize, v.begin());
    const auto d = dct_1d(v);
    std::copy(d.begin(), d.end(), tmp.begin() + r * kSize);
  }
  for (int c = 0; c < kSize; ++c) {
    for (int r = 0; r < kSize; ++r) v[r] = tmp[r * kSize + c];
    const auto d = dct_1d(v);
    for (int r = 0; r < kSize; ++r) out[r * kSize + c] = d[r];
  }
  return out;
}

// Largest |AC coefficient| of a flat picture: luma is rounded to integers, so any real
// variation gives coefficients of order 0.01 and more; rounding noise stays near 1e-13.
constexpr double kFlatAc = 1e-6;

}  // namespace

uint64_t phash_rgb(const uint8_t* rgb, int width, int height) {
  if (rgb == nullptr || width <= 0 || height <= 0) return 0;
  const auto tx = lanczos_taps(width, kSize);
  const auto ty = lanczos_taps(height, kSize);
  const auto rows = resize_rows(rgb, width, height, tx);
  const Channel r = resize_columns(rows[0], ty);
  const Channel g = resize_columns(rows[1], ty);
  const Channel b = resize_columns(rows[2], ty);
  std::array<double, kSize * kSize> luma{};
  for (size_t i = 0; i < luma.size(); ++i)
    luma[i] = std::round(0.299 * r[i] + 0.587 * g[i] + 0.114 * b[i]);
  const auto dct = dct_2d(luma);
  std::array<double, 64> block{};
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 8; ++j) block[i * 8 + j] = dct[(i + 1) * kSize + (j + 1)];
  // A flat picture (or one that varies along one axis only) has no signal in this block: its
  // coefficients are rounding noise whose signs would make a pseudo-random hash shared by
  // every such picture. Its hash is 0, which similar::gate() recognises.
  if (std::all_of(block.begin(), block.end(), [](double c) { return std::abs(c) < kFlatAc; }))
    return 0;
  auto sorted = block;
  std::sort(sorted.begin(), sorted.end());
  const double median = (sorted[31] + sorted[32]) / 2.0;
  uint64_t hash = 0;
  for (int i = 0; i < 64; ++i)
    if (block[i] > median) hash |= uint64_t{1} << (63 - i);
  return hash;
}

int hamming_distance(uint64_t a, uint64_t b) {
  return std::popcount(a ^ b);
}

std::string phash_hex(uint64_t hash) {
  std::string out(16, '0');
  for (int i = 15; i >= 0; --i, hash >>= 4) out[i] = kHexDigits[hash & 0xf];
  return out;
}

std::optional<uint64_t> phash_from_hex(std::string_view hex) {
  if (hex.size() != 16) return std::nullopt;
  uint64_t v = 0;
  for (char c : hex) {
    const int d = hex_value(c);
    if (d < 0) return std::nullopt;
    v = (v << 4) | static_cast<uint64_t>(d);
  }
  return v;
}

}  // namespace strata::analyze
