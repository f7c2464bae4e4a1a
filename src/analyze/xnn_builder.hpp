#pragma once
// The XNNPACK backend of NetBuilder (the default: about 3x faster than OpenCV DNN for
// MobileNetV2 on one core). NHWC like TF, so the weights keep their layout. No threadpool:
// a network runs on the calling thread only. This XNNPACK has no Concatenate: concat()
// throws UnsupportedByBackend (InceptionV3 runs on OpenCV DNN).
#include <xnnpack.h>

#include <list>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "analyze/net_builder.hpp"

namespace strata::analyze {

class XnnBuilder final : public NetBuilder {
 public:
  XnnBuilder();  // throws UnsupportedByBackend when XNNPACK cannot start (unsupported CPU)
  ~XnnBuilder() override;
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
  struct Value {
    uint32_t id = 0;
    Shape shape;
  };
  struct ConvWeights {
    std::vector<float>*weights = nullptr, *bias = nullptr;
    bool depthwise = false;
  };
  uint32_t define(const std::string& name, Shape shape, uint32_t external_id = XNN_INVALID_VALUE_ID,
                  uint32_t flags = 0);
  // A static tensor; its data must live until finish() (XNNPACK packs it then).
  uint32_t constant(std::vector<float> values, std::vector<size_t> dims,
                    std::vector<float>** stored = nullptr);
  uint32_t id(const std::string& name) const;

  xnn_subgraph_t subgraph_ = nullptr;
  std::map<std::string, Value> tensors_;
  std::list<std::vector<float>> constants_;  // stable addresses
  std::map<std::string, ConvWeights> convs_;
  std::string pooled_;  // the last global average pooling
};

}  // namespace strata::analyze
