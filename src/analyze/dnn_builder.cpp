#include "analyze/dnn_builder.hpp"

#include <algorithm>
#include <stdexcept>

namespace strata::analyze {

namespace {

// OpenCV's network over NCHW blobs, fed NHWC images.
class OpenCvNetwork final : public Network {
 public:
  // `pooled_layer`, `pooled_size`: the last global average pooling (empty, 0: none).
  OpenCvNetwork(cv::dnn::Net net, std::string output_layer, int input_size,
                std::string pooled_layer, int pooled_size)
      : net_(std::move(net)),
        output_layer_(std::move(output_layer)),
        pooled_layer_(std::move(pooled_layer)),
        size_(input_size),
        pooled_size_(pooled_size) {
    net_.setPreferableBackend(cv::dnn::DNN_BACKEND_OPENCV);
    net_.setPreferableTarget(cv::dnn::DNN_TARGET_CPU);
  }
  int input_size() const override { return size_; }
  int pooled_size() const override { return pooled_size_; }
  std::vector<float> forward(const std::vector<float>& nhwc, int n,
                             std::vector<float>* pooled) override {
    cv::Mat blob({n, 3, size_, size_}, CV_32F);
    const size_t plane = size_t(size_) * size_;
    for (int i = 0; i < n; ++i) {
      const float* src = nhwc.data() + plane * 3 * i;
      float* dst = blob.ptr<float>(i);
      for (size_t p = 0; p < plane; ++p)
        for (int c = 0; c < 3; ++c) dst[c * plane + p] = src[p * 3 + c];
    }
    net_.setInput(blob, "input");
    std::vector<std::string> names{output_layer_};
    if (pooled && pooled_size_) names.push_back(pooled_layer_);
    std::vector<cv::Mat> results;
    net_.forward(results, names);
    const auto values = [](const cv::Mat& m) {
      const auto* first = m.ptr<float>();
      return std::vector<float>(first, first + m.total());
    };
    if (pooled) *pooled = pooled_size_ ? values(results.at(1)) : std::vector<float>{};
    return values(results.at(0));
  }

 private:
  cv::dnn::Net net_;
  std::string output_layer_, pooled_layer_;
  int size_, pooled_size_;
};

}  // namespace

void DnnBuilder::input(Shape shape) {
  net_.setInputsNames({"input"});
  tensors_["input"] = {0, shape, "input"};
  input_ = shape;
}

const Shape& DnnBuilder::shape(const std::string& name) const {
  const auto it = tensors_.find(name);
  if (it == tensors_.end()) throw std::runtime_error("model: unknown tensor " + name);
  return it->second.shape;
}

int DnnBuilder::add_layer(const std::string& name, const std::string& type,
                          cv::dnn::LayerParams& params, const std::vector<std::string>& inputs,
                          Shape shape) {
  for (const auto& input : inputs) flush(input);
  params.name = name + "#" + std::to_string(counter_++);
  params.type = type;
  const int id = net_.addLayer(params.name, type, params);
  for (size_t i = 0; i < inputs.size(); ++i) {
    const auto it = tensors_.find(inputs[i]);
    if (it == tensors_.end()) throw std::runtime_error("model: unknown tensor " + inputs[i]);
    net_.connect(it->second.layer, 0, id, static_cast<int>(i));
  }
  tensors_[name] = {id, shape, params.name};
  return id;
}

void DnnBuilder::conv(const std::string& name, const std::string& input, const Tensor& kernel,
                      const Tensor* bias, int stride, bool same, Pads pads, bool depthwise) {
  const Shape in = shape(input);
  const ConvGeometry g = conv_geometry(name, in, kernel, stride, same, pads, depthwise);
  const int kh = g.kh, kw = g.kw, co = g.co;
  pads = g.pads;
  std::string source = input;
  if (pads.top != pads.bottom || pads.left != pads.right) {
    // OpenCV's convolution only pads symmetrically: TF's extra bottom/right row goes first.
    source = name + "/pad";
    pad(source, input, pads);
    pads = {};
  }
  const Shape padded = shape(source);
  flush(source);
  PendingConv& p =
      pending_[name] = {source, kernel.shape, kernel.values, std::vector<float>(size_t(co), 0.0f),
                        stride, pads,         depthwise};
  if (bias) std::copy(bias->values.begin(), bias->values.end(), p.bias.begin());
  tensors_[name] = {-1,
                    {co, pooled_size(padded.h, kh, stride, pads.top + pads.bottom),
                     pooled_size(padded.w, kw, stride, pads.left + pads.right)},
                    {}};
}

void DnnBuilder::pad(const std::string& name, const std::string& input, Pads pads) {
  const Shape in = shape(input);
  cv::dnn::LayerParams p;
  const int paddings[] = {0, 0, 0, 0, pads.top, pads.bottom, pads.left, pads.right};
  p.set("paddings", cv::dnn::DictValue::arrayInt(paddings, 8));
  p.set("value", 0.0f);
  add_layer(name, "Padding", p, {input},
            {in.c, in.h + pads.top + pads.bottom, in.w + pads.left + pads.right});
}

void DnnBuilder::fold_batchnorm(const std::string& conv_name, const Tensor* gamma,
                                const Tensor& beta, const Tensor& mean, const Tensor& variance,
                                float epsilon) {
  auto it = pending_.find(conv_name);
  if (it == pending_.end())
    throw std::runtime_error("model: batchnorm after " + conv_name + " cannot be folded");
  PendingConv& conv = it->second;
  const std::vector<float> scale =
      fold_batchnorm_into_bias(conv.bias, gamma, beta, mean, variance, epsilon);
  // TF layout (HWIO, HWCM): the output channel is the fastest index.
  for (size_t k = 0; k < conv.weights.size(); ++k) conv.weights[k] *= scale[k % scale.size()];
}

void DnnBuilder::flush(const std::string& name) {
  auto it = pending_.find(name);
  if (it == pending_.end()) return;
  const PendingConv conv = std::move(it->second);
  pending_.erase(it);
  const int kh = conv.kernel_shape[0], kw = conv.kernel_shape[1], ci = conv.kernel_shape[2],
            k3 = conv.kernel_shape[3];
  const int co = int(conv.bias.size());
  // HWIO -> OIHW; depthwise HWCM -> (C*M)1HW with output channel c*M+m.
  cv::Mat weights({co, conv.depthwise ? 1 : ci, kh, kw}, CV_32F);
  auto* w = weights.ptr<float>();
  for (int y = 0; y < kh; ++y)
    for (int x = 0; x < kw; ++x)
      for (int i = 0; i < ci; ++i)
        for (int o = 0; o < k3; ++o) {
          const float v = conv.weights[((size_t(y) * kw + x) * ci + i) * k3 + o];
          if (conv.depthwise)
            w[((size_t(i * k3 + o)) * kh + y) * kw + x] = v;
          else
            w[((size_t(o) * ci + i) * kh + y) * kw + x] = v;
        }
  cv::Mat b(1, co, CV_32F);
  std::copy(conv.bias.begin(), conv.bias.end(), b.ptr<float>());
  cv::dnn::LayerParams p;
  p.set("kernel_h", kh);
  p.set("kernel_w", kw);
  p.set("stride_h", conv.stride);
  p.set("stride_w", conv.stride);
  p.set("pad_t", conv.pads.top);
  p.set("pad_b", conv.pads.bottom);
  p.set("pad_l", conv.pads.left);
  p.set("pad_r", conv.pads.right);
  p.set("num_output", co);
  p.set("group", conv.depthwise ? ci : 1);
  p.set("bias_term", true);
  p.blobs = {weights, b};
  const Shape out = tensors_[name].shape;
  add_layer(name, "Convolution", p, {conv.input}, out);
}

void DnnBuilder::activation(const std::string& name, const std::string& input, Activation act) {
  cv::dnn::LayerParams p;
  switch (act) {
    case Activation::none:
      alias(name, input);
      return;
    case Activation::relu:
      add_layer(name, "ReLU", p, {input}, shape(input));
      return;
    case Activation::relu6:
      p.set("min_value", 0.0f);
      p.set("max_value", 6.0f);
      add_layer(name, "ReLU6", p, {input}, shape(input));
      return;
    case Activation::softmax:
      p.set("axis", 1);
      add_layer(name, "Softmax", p, {input}, shape(input));
      return;
  }
}

void DnnBuilder::affine(const std::string& name, const std::string& input, float scale,
                        float shift) {
  cv::dnn::LayerParams p;
  p.set("power", 1.0f);
  p.set("scale", scale);
  p.set("shift", shift);
  add_layer(name, "Power", p, {input}, shape(input));
}

void DnnBuilder::add(const std::string& name, const std::string& a, const std::string& b) {
  cv::dnn::LayerParams p;
  p.set("operation", "sum");
  add_layer(name, "Eltwise", p, {a, b}, shape(a));
}

void DnnBuilder::concat(const std::string& name, const std::vector<std::string>& inputs) {
  cv::dnn::LayerParams p;
  p.set("axis", 1);
  Shape out = shape(inputs.at(0));
  out.c = 0;
  for (const auto& input : inputs) out.c += shape(input).c;
  add_layer(name, "Concat", p, inputs, out);
}

void DnnBuilder::pool(const std::string& name, const std::string& input, bool max, int size,
                      int stride, bool same) {
  const Shape in = shape(input);
  Pads pads;
  if (same) {
    std::tie(pads.top, pads.bottom) = same_pads(in.h, size, stride);
    std::tie(pads.left, pads.right) = same_pads(in.w, size, stride);
  }
  cv::dnn::LayerParams p;
  p.set("pool", max ? "max" : "ave");
  p.set("kernel_h", size);
  p.set("kernel_w", size);
  p.set("stride_h", stride);
  p.set("stride_w", stride);
  p.set("pad_t", pads.top);
  p.set("pad_b", pads.bottom);
  p.set("pad_l", pads.left);
  p.set("pad_r", pads.right);
  p.set("ave_pool_padded_area", false);  // TF averages over the valid pixels only
  const Shape out{in.c, pooled_size(in.h, size, stride, pads.top + pads.bottom),
                  pooled_size(in.w, size, stride, pads.left + pads.right)};
  add_layer(name, "Pooling", p, {input}, out);
}

void DnnBuilder::global_average(const std::string& name, const std::string& input) {
  cv::dnn::LayerParams p;
  p.set("pool", "ave");
  p.set("global_pooling", true);
  add_layer(name, "Pooling", p, {input}, {shape(input).c, 1, 1});
  pooled_ = name;
}

void DnnBuilder::dense(const std::string& name, const std::string& input, const Tensor& kernel,
                       const Tensor* bias) {
  const Shape in = shape(input);
  if (in.h != 1 || in.w != 1)
    throw std::runtime_error("model: dense layer " + name + " on a spatial tensor");
  const int ni = kernel.shape.at(0), no = kernel.shape.at(1);
  cv::Mat w(no, ni, CV_32F);
  for (int i = 0; i < ni; ++i)
    for (int o = 0; o < no; ++o) w.at<float>(o, i) = kernel.values[size_t(i) * no + o];
  cv::Mat b = cv::Mat::zeros(1, no, CV_32F);
  if (bias) std::copy(bias->values.begin(), bias->values.end(), b.ptr<float>());
  cv::dnn::LayerParams p;
  p.set("num_output", no);
  p.set("bias_term", true);
  p.set("axis", 1);
  p.blobs = {w, b};
  add_layer(name, "InnerProduct", p, {input}, {no, 1, 1});
}

void DnnBuilder::alias(const std::string& name, const std::string& existing) {
  flush(existing);
  tensors_[name] = tensors_.at(existing);
}

std::unique_ptr<Network> DnnBuilder::finish(const std::string& output) {
  flush(output);
  if (!pending_.empty())
    throw std::runtime_error("model: unused convolution " + pending_.begin()->first);
  const Slot* pooled = pooled_.empty() ? nullptr : &tensors_.at(pooled_);
  return std::make_unique<OpenCvNetwork>(std::move(net_), tensors_.at(output).layer_name, input_.h,
                                         pooled ? pooled->layer_name : std::string(),
                                         pooled ? pooled->shape.c : 0);
}

}  // namespace strata::analyze
