#include "analyze/net_builder.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <tuple>

namespace strata::analyze {

std::pair<int, int> same_pads(int in, int kernel, int stride) {
  const int out = (in + stride - 1) / stride;
  const int total = std::max((out - 1) * stride + kernel - in, 0);
  return {total / 2, total - total / 2};
}

int pooled_size(int in, int kernel, int stride, int pad_total) {
  return (in + pad_total - kernel) / stride + 1;
}

ConvGeometry conv_geometry(const std::string& name, const Shape& in, const Tensor& kernel,
                           int stride, bool same, Pads pads, bool depthwise) {
  if (kernel.shape.size() != 4)
    throw std::runtime_error("model: conv kernel of " + name + " is not 4-D");
  ConvGeometry g{kernel.shape[0], kernel.shape[1], kernel.shape[2], 0, pads};
  g.co = depthwise ? g.ci * kernel.shape[3] : kernel.shape[3];
  if (same) {
    std::tie(g.pads.top, g.pads.bottom) = same_pads(in.h, g.kh, stride);
    std::tie(g.pads.left, g.pads.right) = same_pads(in.w, g.kw, stride);
  }
  return g;
}

std::vector<float> fold_batchnorm_into_bias(std::vector<float>& bias, const Tensor* gamma,
                                            const Tensor& beta, const Tensor& mean,
                                            const Tensor& variance, float epsilon) {
  std::vector<float> scale(bias.size());
  for (size_t o = 0; o < bias.size(); ++o) {
    const float g = gamma ? gamma->values[o] : 1.0f;
    scale[o] = g / std::sqrt(variance.values[o] + epsilon);
    bias[o] = (bias[o] - mean.values[o]) * scale[o] + beta.values[o];
  }
  return scale;
}

}  // namespace strata::analyze
