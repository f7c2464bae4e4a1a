#include "analyze/nsfw.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <stdexcept>

#include "analyze/model_import.hpp"
#include "analyze/tfjs_model.hpp"

namespace strata::analyze {

float NsfwScores::nsfw() const {
  float value = porn() + hentai();
  if (value < 0.5f && value > neutral() && value > drawing()) value = 0.51f;
  return value;
}

bool NsfwScores::is_drawing() const {
  const auto top = std::max_element(p.begin(), p.end()) - p.begin();
  return top == 0 || top == 1;
}

std::optional<std::filesystem::path> find_nsfw_models() {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (const char* env = std::getenv("STRATA_MODELS"); env && *env) {
    const fs::path p = fs::path(env) / "nsfwjs";
    if (fs::is_directory(p, ec)) return p;
  }
  for (const char* env_name : {"STRATA_SOURCE_DIR"})
    if (const char* env = std::getenv(env_name);
        env && *env && fs::is_directory(fs::path(env) / "models/nsfwjs", ec))
      return fs::path(env) / "models/nsfwjs";
  // The working folder's ancestors, then the executable's (a checkout's build folder).
  for (fs::path start : {fs::current_path(ec), fs::read_symlink("/proc/self/exe", ec)}) {
    for (fs::path dir = start; !dir.empty(); dir = dir.parent_path()) {
      if (fs::is_directory(dir / "models/nsfwjs", ec)) return dir / "models/nsfwjs";
      if (dir == dir.parent_path()) break;
    }
  }
  return std::nullopt;
}

std::vector<float> nsfw_preprocess(const RgbImage& image, int size) {
  std::vector<float> out(size_t(size) * size * 3);
  const int w = image.width, h = image.height;
  if (w == size && h == size) {
    for (size_t i = 0; i < out.size(); ++i) out[i] = image.rgb[i] / 255.0f;
    return out;
  }
  // One sample position per axis, shared by every row and column (the same arithmetic as
  // one pixel at a time).
  struct Sample {
    int lo, hi;
    float frac;
  };
  const auto samples = [size](int n) {
    const float step = size > 1 ? float(n - 1) / float(size - 1) : 0.0f;
    std::vector<Sample> positions(static_cast<size_t>(size));
    for (int i = 0; i < size; ++i) {
      const float f = i * step;
      const int lo = std::min(int(std::floor(f)), n - 1);
      positions[size_t(i)] = {lo, std::min(lo + 1, n - 1), f - lo};
    }
    return positions;
  };
  const std::vector<Sample> xs = samples(w), ys = samples(h);
  const auto px = [&](int y, int x, int c) {
    return image.rgb[(size_t(y) * w + x) * 3 + c] / 255.0f;
  };
  float* o = out.data();
  for (const Sample& y : ys)
    for (const Sample& x : xs)
      for (int c = 0; c < 3; ++c) {
        const float top = px(y.lo, x.lo, c) + (px(y.lo, x.hi, c) - px(y.lo, x.lo, c)) * x.frac;
        const float bottom = px(y.hi, x.lo, c) + (px(y.hi, x.hi, c) - px(y.hi, x.lo, c)) * x.frac;
        *o++ = top + (bottom - top) * y.frac;
      }
  return out;
}

NsfwClassifier::NsfwClassifier(const std::filesystem::path& folder)
    : net_(load_network(load_tfjs_model(folder))) {}

NsfwClassifier::~NsfwClassifier() = default;

int NsfwClassifier::input_size() const {
  return net_->input_size();
}

NsfwScores NsfwClassifier::classify(const RgbImage& image) {
  return classify_batch({&image}).at(0);
}

std::vector<NsfwScores> NsfwClassifier::classify_batch(const std::vector<const RgbImage*>& images,
                                                       std::vector<std::vector<float>>* pooled) {
  std::vector<NsfwScores> out;
  if (images.empty()) return out;
  const int size = input_size();
  const int n = static_cast<int>(images.size());
  const size_t per_image = size_t(size) * size * 3;
  std::vector<float> batch(per_image * size_t(n));
  for (int i = 0; i < n; ++i) {
    const std::vector<float> image = nsfw_preprocess(*images[i], size);
    std::copy(image.begin(), image.end(), batch.begin() + std::ptrdiff_t(per_image) * i);
  }
  std::vector<float> pooled_values;
  const std::vector<float> scores = net_->forward(batch, n, pooled ? &pooled_values : nullptr);
  if (scores.size() != size_t(n) * 5)
    throw std::runtime_error("model: expected 5 classes, got " +
                             std::to_string(scores.size() / size_t(n)));
  for (int i = 0; i < n; ++i) {
    NsfwScores& s = out.emplace_back();
    for (int c = 0; c < 5; ++c) s.p[c] = scores[size_t(i) * 5 + c];
  }
  if (pooled) {
    const size_t per = pooled_values.size() / size_t(n);
    pooled->clear();
    for (int i = 0; i < n; ++i)
      pooled->emplace_back(pooled_values.begin() + std::ptrdiff_t(per * size_t(i)),
                           pooled_values.begin() + std::ptrdiff_t(per * size_t(i + 1)));
  }
  return out;
}

}  // namespace strata::analyze
