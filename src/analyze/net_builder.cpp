#include "analyze/net_builder.hpp"

#include <algorithm>
#include <cmath>

namespace strata::analyze {

std::pair<int, int> same_pads(int in, int kernel, int stride) {
  const int out = (in + stride - 1) / stride;
  const int total = std::max((out - 1) * stride + kernel - in, 0);
  return {total / 2, total - total / 2};
}

int pooled_size(int in, int kernel, int stride, int pad_total) {
  return (in + pad_total - kernel) / stride + 1;
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
