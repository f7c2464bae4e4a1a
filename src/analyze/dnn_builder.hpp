#pragma once
// Builds an OpenCV DNN network layer by layer from TF-layout weights (the importers for
// Keras layers-models and TF graph-models both use it). Tracks every tensor's NCHW shape so
// TensorFlow's SAME padding (extra row/column at the bottom/right) can be made explicit.
#include <opencv2/dnn.hpp>

#include <map>
#include <string>
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

class DnnBuilder {
 public:
  // The network input is named "input", NCHW float with the given shape.
  explicit DnnBuilder(Shape input);

  // Output tensor name = `name`. `kernel` is HWIO (conv) or HWCM (depthwise); `bias` may be
  // null. `same` selects TF SAME padding, else `pads` (explicit, e.g. from ZeroPadding2D).
  void conv(const std::string& name, const std::string& input, const Tensor& kernel,
            const Tensor* bias, int stride, bool same, Pads pads, bool depthwise);
  void pad(const std::string& name, const std::string& input, Pads pads);
  // Folds an inference BatchNormalization into the conv that produced `conv_name`.
  void fold_batchnorm(const std::string& conv_name, const Tensor* gamma, const Tensor& beta,
                      const Tensor& mean, const Tensor& variance, float epsilon);
  void activation(const std::string& name, const std::string& input, Activation act);
  void affine(const std::string& name, const std::string& input, float scale, float shift);
  void add(const std::string& name, const std::string& a, const std::string& b);
  void concat(const std::string& name, const std::vector<std::string>& inputs);
  void pool(const std::string& name, const std::string& input, bool max, int size, int stride,
            bool same);
  void global_average(const std::string& name, const std::string& input);
  // `kernel` is [in, out] (Keras Dense / MatMul without transpose).
  void dense(const std::string& name, const std::string& input, const Tensor& kernel,
             const Tensor* bias);
  void alias(const std::string& name, const std::string& existing);

  bool has(const std::string& name) const { return tensors_.count(name) != 0; }
  const Shape& shape(const std::string& name) const;
  // The finished network; `output_layer` receives the OpenCV layer name to forward() to.
  cv::dnn::Net finish(const std::string& output, std::string& output_layer);

 private:
  struct Slot {
    int layer = 0;
    Shape shape;
    std::string layer_name;
  };
  struct PendingConv {
    cv::dnn::LayerParams params;
    std::string input;
  };
  int add_layer(const std::string& name, const std::string& type, cv::dnn::LayerParams& params,
                const std::vector<std::string>& inputs, Shape shape);
  void flush(const std::string& name);

  cv::dnn::Net net_;
  std::map<std::string, Slot> tensors_;
  std::map<std::string, PendingConv> pending_;  // convs kept open for a following batchnorm
  int counter_ = 0;
};

}  // namespace strata::analyze
