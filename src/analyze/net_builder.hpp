#pragma once
// What the TF.js importers (keras_import.cpp, graph_import.cpp) build a network through, and
// the network they give: two backends, XNNPACK (xnn_builder) and OpenCV DNN (dnn_builder).
// Tensors are named; shapes are tracked so TensorFlow's SAME padding (extra row/column at the
// bottom/right) can be made explicit. Weights arrive in TF layout (HWIO conv kernels, HWCM
// depthwise kernels, [in, out] dense kernels).
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "analyze/tfjs_model.hpp"

namespace strata::analyze {

struct Shape {
  int c = 0, h = 0, w = 0;
};

struct Pads {
  int top = 0, bottom = 0, left = 0, right = 0;
};

enum class Activation { none, relu, relu6, softmax };

// TF SAME padding along one axis: {before, after}.
std::pair<int, int> same_pads(int in, int kernel, int stride);
int pooled_size(int in, int kernel, int stride, int pad_total);

// A TF convolution's HWIO (or HWCM, depthwise) kernel sizes and its padding, SAME resolved.
// Throws std::runtime_error when the kernel is not 4-D.
struct ConvGeometry {
  int kh = 0, kw = 0, ci = 0, co = 0;
  Pads pads;
};
ConvGeometry conv_geometry(const std::string& name, const Shape& in, const Tensor& kernel,
                           int stride, bool same, Pads pads, bool depthwise);

// A finished network: square RGB input, one thread (the caller runs one per core).
class Network {
 public:
  virtual ~Network() = default;
  virtual int input_size() const = 0;
  // Values per image of the network's last global average pooling (MobileNetV2: 1280), the
  // image embedding of analyze/embedding.hpp; 0 when the network has none.
  virtual int pooled_size() const = 0;
  // `n` images of input_size() x input_size() x 3 floats each, NHWC; n x classes scores.
  // With `pooled`, also its n x pooled_size() values, from the same pass.
  virtual std::vector<float> forward(const std::vector<float>& nhwc, int n,
                                     std::vector<float>* pooled = nullptr) = 0;
};

// Thrown by a backend for a model it cannot run (the other backend may).
struct UnsupportedByBackend : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class NetBuilder {
 public:
  virtual ~NetBuilder() = default;
  // The network input is named "input", RGB float with the given shape.
  virtual void input(Shape shape) = 0;
  // Output tensor name = `name`. `bias` may be null. `same` selects TF SAME padding, else
  // `pads` (explicit, e.g. from ZeroPadding2D).
  virtual void conv(const std::string& name, const std::string& input, const Tensor& kernel,
                    const Tensor* bias, int stride, bool same, Pads pads, bool depthwise) = 0;
  // Folds an inference BatchNormalization into the conv that produced `conv_name`.
  virtual void fold_batchnorm(const std::string& conv_name, const Tensor* gamma, const Tensor& beta,
                              const Tensor& mean, const Tensor& variance, float epsilon) = 0;
  virtual void activation(const std::string& name, const std::string& input, Activation act) = 0;
  virtual void affine(const std::string& name, const std::string& input, float scale,
                      float shift) = 0;
  virtual void add(const std::string& name, const std::string& a, const std::string& b) = 0;
  virtual void concat(const std::string& name, const std::vector<std::string>& inputs) = 0;
  virtual void pool(const std::string& name, const std::string& input, bool max, int size,
                    int stride, bool same) = 0;
  // The last one built is the network's pooled output (Network::pooled_size()).
  virtual void global_average(const std::string& name, const std::string& input) = 0;
  virtual void dense(const std::string& name, const std::string& input, const Tensor& kernel,
                     const Tensor* bias) = 0;
  virtual void alias(const std::string& name, const std::string& existing) = 0;
  virtual bool has(const std::string& name) const = 0;
  virtual const Shape& shape(const std::string& name) const = 0;
  virtual std::unique_ptr<Network> finish(const std::string& output) = 0;
};

// Folds an inference batchnorm into a conv's `bias`; returns the factor by which each output
// channel's weights must be multiplied.
std::vector<float> fold_batchnorm_into_bias(std::vector<float>& bias, const Tensor* gamma,
                                            const Tensor& beta, const Tensor& mean,
                                            const Tensor& variance, float epsilon);

}  // namespace strata::analyze
