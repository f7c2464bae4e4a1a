#pragma once
// The OpenCV DNN backend of NetBuilder: runs every model the importers read (XNNPACK lacks
// Concatenate, which InceptionV3 needs). NCHW inside; forward() takes NHWC like the other.
#include <opencv2/dnn.hpp>

#include <map>
#include <string>
#include <vector>

#include "analyze/net_builder.hpp"

namespace strata::analyze {

class DnnBuilder final : public NetBuilder {
 public:
  void input(Shape shape) override;
  void conv(const std::string& name, const std::string& input, const Tensor& kernel,
            const Tensor* bias, int stride, bool same, Pads pads, bool depthwise) override;
  void fold_batchnorm(const std::string& conv_name, const Tensor* gamma, const Tensor& beta,
                      const Tensor& mean, const Tensor& variance, float epsilon) override;
  void activation(const std::string& name, const std::string& input, Activation act) override;
  void affine(const std::string& name, const std::string& input, float scale, float shift) override;
  void add(const std::string& name, const std::string& a, const std::string& b) override;
  void concat(const std::string& name, const std::vector<std::string>& inputs) override;
  void pool(const std::string& name, const std::string& input, bool max, int size, int stride,
            bool same) override;
  void global_average(const std::string& name, const std::string& input) override;
  void dense(const std::string& name, const std::string& input, const Tensor& kernel,
             const Tensor* bias) override;
  void alias(const std::string& name, const std::string& existing) override;
  bool has(const std::string& name) const override { return tensors_.count(name) != 0; }
  const Shape& shape(const std::string& name) const override;
  std::unique_ptr<Network> finish(const std::string& output) override;

 private:
  struct Slot {
    int layer = 0;
    Shape shape;
    std::string layer_name;
  };
  // A conv kept open for a following batchnorm; weights in TF layout until flushed.
  struct PendingConv {
    std::string input;
    std::vector<int> kernel_shape;  // HWIO or HWCM
    std::vector<float> weights, bias;
    int stride = 1;
    Pads pads;
    bool depthwise = false;
  };
  int add_layer(const std::string& name, const std::string& type, cv::dnn::LayerParams& params,
                const std::vector<std::string>& inputs, Shape shape);
  void pad(const std::string& name, const std::string& input, Pads pads);
  void flush(const std::string& name);

  cv::dnn::Net net_;
  Shape input_;
  std::map<std::string, Slot> tensors_;
  std::map<std::string, PendingConv> pending_;
  int counter_ = 0;
  std::string pooled_;  // the last global average pooling
};

}  // namespace strata::analyze
