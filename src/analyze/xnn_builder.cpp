#include "analyze/xnn_builder.hpp"

#include <limits>

namespace strata::analyze {
namespace {

constexpr uint32_t kInputId = 0, kOutputId = 1, kPooledId = 2;
constexpr float kInf = std::numeric_limits<float>::infinity();

void check(xnn_status status, const std::string& what) {
  if (status != xnn_status_success)
    throw std::runtime_error("model: XNNPACK refused " + what + " (status " +
                             std::to_string(int(status)) + ")");
}

std::vector<size_t> nhwc(Shape s) {
  return {1, size_t(s.h), size_t(s.w), size_t(s.c)};
}

std::pair<float, float> clamp_range(Activation act) {
  return act == Activation::relu6 ? std::pair{0.0f, 6.0f} : std::pair{0.0f, kInf};
}

class XnnNetwork final : public Network {
 public:
  XnnNetwork(xnn_runtime_t runtime, Shape input, size_t outputs, size_t pooled)
      : runtime_(runtime), input_(input), outputs_(outputs), pooled_(pooled) {}
  ~XnnNetwork() override { xnn_delete_runtime(runtime_); }
  int input_size() const override { return input_.h; }
  int pooled_size() const override { return int(pooled_); }
  std::vector<float> forward(const std::vector<float>& images, int n,
                             std::vector<float>* pooled) override {
    const size_t per_image = size_t(input_.h) * input_.w * input_.c;
    if (images.size() < per_image * size_t(n))
      throw std::runtime_error("model: input smaller than the batch");
    std::vector<float> out(outputs_ * size_t(n));
    // The pooled output is computed anyway (the classifier's input): only its copy is extra.
    std::vector<float> pooled_out(pooled_ * size_t(n));
    for (int i = 0; i < n; ++i) {
      const xnn_external_value values[] = {
          {kInputId, const_cast<float*>(images.data() + per_image * i)},
          {kOutputId, out.data() + outputs_ * i},
          {kPooledId, pooled_out.data() + pooled_ * i}};
      check(xnn_setup_runtime(runtime_, pooled_ ? 3 : 2, values), "the input");
      check(xnn_invoke_runtime(runtime_), "a forward pass");
    }
    if (pooled) *pooled = std::move(pooled_out);
    return out;
  }

 private:
  xnn_runtime_t runtime_;
  Shape input_;
  size_t outputs_, pooled_;
};

// Copies `value` into the external output `external_id` (values are external only from their
// definition).
void define_external_copy(xnn_subgraph_t subgraph, uint32_t value, Shape shape,
                          uint32_t external_id, const std::string& what) {
  const std::vector<size_t> dims = nhwc(shape);
  uint32_t copy = 0;
  check(xnn_define_tensor_value(subgraph, xnn_datatype_fp32, dims.size(), dims.data(), nullptr,
                                external_id, XNN_VALUE_FLAG_EXTERNAL_OUTPUT, &copy),
        what);
  check(xnn_define_static_reshape(subgraph, dims.size(), dims.data(), value, copy, 0), what);
}

}  // namespace

XnnBuilder::XnnBuilder() {
  static const xnn_status started = xnn_initialize(nullptr);
  if (started != xnn_status_success)  // a CPU XNNPACK does not support: OpenCV DNN runs it
    throw UnsupportedByBackend("model: XNNPACK does not run on this CPU");
  check(xnn_create_subgraph(3, 0, &subgraph_), "a new network");
}

XnnBuilder::~XnnBuilder() {
  if (subgraph_) xnn_delete_subgraph(subgraph_);
}

uint32_t XnnBuilder::define(const std::string& name, Shape shape, uint32_t external_id,
                            uint32_t flags) {
  const std::vector<size_t> dims = nhwc(shape);
  uint32_t value = 0;
  check(xnn_define_tensor_value(subgraph_, xnn_datatype_fp32, dims.size(), dims.data(), nullptr,
                                external_id, flags, &value),
        "tensor " + name);
  tensors_[name] = {value, shape};
  return value;
}

uint32_t XnnBuilder::constant(std::vector<float> values, std::vector<size_t> dims,
                              std::vector<float>** stored) {
  std::vector<float>& kept = constants_.emplace_back(std::move(values));
  if (stored) *stored = &kept;
  uint32_t value = 0;
  check(xnn_define_tensor_value(subgraph_, xnn_datatype_fp32, dims.size(), dims.data(), kept.data(),
                                XNN_INVALID_VALUE_ID, 0, &value),
        "a constant");
  return value;
}

uint32_t XnnBuilder::id(const std::string& name) const {
  const auto it = tensors_.find(name);
  if (it == tensors_.end()) throw std::runtime_error("model: unknown tensor " + name);
  return it->second.id;
}

const Shape& XnnBuilder::shape(const std::string& name) const {
  const auto it = tensors_.find(name);
  if (it == tensors_.end()) throw std::runtime_error("model: unknown tensor " + name);
  return it->second.shape;
}

void XnnBuilder::input(Shape shape) {
  define("input", shape, kInputId, XNN_VALUE_FLAG_EXTERNAL_INPUT);
}

void XnnBuilder::conv(const std::string& name, const std::string& input, const Tensor& kernel,
                      const Tensor* bias, int stride, bool same, Pads pads, bool depthwise) {
  const Shape in = shape(input);
  const ConvGeometry g = conv_geometry(name, in, kernel, stride, same, pads, depthwise);
  const int kh = g.kh, kw = g.kw, ci = g.ci, co = g.co;
  pads = g.pads;
  ConvWeights& stored = convs_[name];
  stored.depthwise = depthwise;
  uint32_t filter = 0;
  if (depthwise) {  // HWCM is XNNPACK's [1, H, W, C*M] as it is
    filter = constant(kernel.values, {1, size_t(kh), size_t(kw), size_t(co)}, &stored.weights);
  } else {  // HWIO -> OHWI
    std::vector<float> ohwi(kernel.values.size());
    for (size_t hw = 0; hw < size_t(kh) * kw; ++hw)
      for (int i = 0; i < ci; ++i)
        for (int o = 0; o < co; ++o)
          ohwi[(size_t(o) * kh * kw + hw) * ci + i] = kernel.values[(hw * ci + i) * co + o];
    filter = constant(std::move(ohwi), {size_t(co), size_t(kh), size_t(kw), size_t(ci)},
                      &stored.weights);
  }
  std::vector<float> b(size_t(co), 0.0f);
  if (bias) std::copy(bias->values.begin(), bias->values.end(), b.begin());
  const uint32_t bias_id = constant(std::move(b), {size_t(co)}, &stored.bias);
  const Shape out{co, pooled_size(in.h, kh, stride, pads.top + pads.bottom),
                  pooled_size(in.w, kw, stride, pads.left + pads.right)};
  const uint32_t input_id = id(input);
  const uint32_t output_id = define(name, out);
  if (depthwise)
    check(xnn_define_depthwise_convolution_2d(
              subgraph_, pads.top, pads.right, pads.bottom, pads.left, kh, kw, stride, stride, 1, 1,
              kernel.shape[3], ci, -kInf, kInf, input_id, filter, bias_id, output_id, 0),
          "depthwise convolution " + name);
  else
    check(xnn_define_convolution_2d(subgraph_, pads.top, pads.right, pads.bottom, pads.left, kh, kw,
                                    stride, stride, 1, 1, 1, ci, co, -kInf, kInf, input_id, filter,
                                    bias_id, output_id, 0),
          "convolution " + name);
}

void XnnBuilder::fold_batchnorm(const std::string& conv_name, const Tensor* gamma,
                                const Tensor& beta, const Tensor& mean, const Tensor& variance,
                                float epsilon) {
  const auto it = convs_.find(conv_name);
  if (it == convs_.end())
    throw std::runtime_error("model: batchnorm after " + conv_name + " cannot be folded");
  std::vector<float>& weights = *it->second.weights;
  const std::vector<float> scale =
      fold_batchnorm_into_bias(*it->second.bias, gamma, beta, mean, variance, epsilon);
  const size_t co = scale.size();
  if (it->second.depthwise)  // [1, H, W, C*M]: output channel fastest
    for (size_t k = 0; k < weights.size(); ++k) weights[k] *= scale[k % co];
  else  // OHWI: output channel slowest
    for (size_t k = 0, per_out = weights.size() / co; k < weights.size(); ++k)
      weights[k] *= scale[k / per_out];
}

void XnnBuilder::activation(const std::string& name, const std::string& input, Activation act) {
  const Shape in = shape(input);
  if (act == Activation::none) return alias(name, input);
  if (act == Activation::softmax) {
    const uint32_t input_id = id(input);
    check(xnn_define_softmax(subgraph_, input_id, define(name, in), 0), "softmax " + name);
    return;
  }
  // XNNPACK's optimiser fuses the clamp into the convolution before it.
  const auto [lo, hi] = clamp_range(act);
  const uint32_t input_id = id(input);
  check(xnn_define_clamp(subgraph_, lo, hi, input_id, define(name, in), 0), "activation " + name);
}

void XnnBuilder::affine(const std::string& name, const std::string& input, float scale,
                        float shift) {
  // A 1x1 depthwise convolution: x * scale + shift on every channel, no broadcasting.
  const Shape s = shape(input);
  const size_t c = size_t(s.c);
  const uint32_t filter = constant(std::vector<float>(c, scale), {1, 1, 1, c});
  const uint32_t bias = constant(std::vector<float>(c, shift), {c});
  const uint32_t input_id = id(input);
  check(xnn_define_depthwise_convolution_2d(subgraph_, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, c, -kInf,
                                            kInf, input_id, filter, bias, define(name, s), 0),
        "scaling " + name);
}

void XnnBuilder::add(const std::string& name, const std::string& a, const std::string& b) {
  const uint32_t a_id = id(a), b_id = id(b);
  check(xnn_define_add2(subgraph_, -kInf, kInf, a_id, b_id, define(name, shape(a)), 0),
        "addition " + name);
}

void XnnBuilder::concat(const std::string& name, const std::vector<std::string>&) {
  throw UnsupportedByBackend("model: this XNNPACK has no concatenation (" + name + ")");
}

void XnnBuilder::pool(const std::string& name, const std::string& input, bool max, int size,
                      int stride, bool same) {
  const Shape in = shape(input);
  Pads pads;
  if (same) {
    std::tie(pads.top, pads.bottom) = same_pads(in.h, size, stride);
    std::tie(pads.left, pads.right) = same_pads(in.w, size, stride);
  }
  const Shape out{in.c, pooled_size(in.h, size, stride, pads.top + pads.bottom),
                  pooled_size(in.w, size, stride, pads.left + pads.right)};
  const uint32_t input_id = id(input);
  const uint32_t output_id = define(name, out);
  // Both skip the padding: max over valid pixels, average over valid pixels (as TF).
  if (max)
    check(
        xnn_define_max_pooling_2d(subgraph_, pads.top, pads.right, pads.bottom, pads.left, size,
                                  size, stride, stride, 1, 1, -kInf, kInf, input_id, output_id, 0),
        "max pooling " + name);
  else
    check(
        xnn_define_average_pooling_2d(subgraph_, pads.top, pads.right, pads.bottom, pads.left, size,
                                      size, stride, stride, -kInf, kInf, input_id, output_id, 0),
        "average pooling " + name);
}

void XnnBuilder::global_average(const std::string& name, const std::string& input) {
  const uint32_t input_id = id(input);
  check(xnn_define_global_average_pooling_2d(subgraph_, -kInf, kInf, input_id,
                                             define(name, {shape(input).c, 1, 1}), 0),
        "global average " + name);
  pooled_ = name;
}

void XnnBuilder::dense(const std::string& name, const std::string& input, const Tensor& kernel,
                       const Tensor* bias) {
  const Shape in = shape(input);
  if (in.h != 1 || in.w != 1)
    throw std::runtime_error("model: dense layer " + name + " on a spatial tensor");
  const size_t ni = size_t(kernel.shape.at(0)), no = size_t(kernel.shape.at(1));
  std::vector<float> b(no, 0.0f);
  if (bias) std::copy(bias->values.begin(), bias->values.end(), b.begin());
  const uint32_t filter = constant(kernel.values, {ni, no});
  const uint32_t bias_id = constant(std::move(b), {no});
  const uint32_t input_id = id(input);
  check(xnn_define_fully_connected(subgraph_, -kInf, kInf, input_id, filter, bias_id,
                                   define(name, {int(no), 1, 1}), XNN_FLAG_TRANSPOSE_WEIGHTS),
        "dense layer " + name);
}

void XnnBuilder::alias(const std::string& name, const std::string& existing) {
  tensors_[name] = tensors_.at(existing);
}

std::unique_ptr<Network> XnnBuilder::finish(const std::string& output) {
  const Shape out = shape(output);
  const Shape in = shape("input");
  define_external_copy(subgraph_, id(output), out, kOutputId, "the output");
  size_t pooled = 0;
  if (!pooled_.empty()) {
    const Shape p = shape(pooled_);
    define_external_copy(subgraph_, id(pooled_), p, kPooledId, "the pooled output");
    pooled = size_t(p.c) * p.h * p.w;
  }
  xnn_runtime_t runtime = nullptr;
  check(xnn_create_runtime_v2(subgraph_, nullptr, 0, &runtime), "the network");
  convs_.clear();
  constants_.clear();  // packed into the runtime
  return std::make_unique<XnnNetwork>(runtime, in, size_t(out.c) * out.h * out.w, pooled);
}

}  // namespace strata::analyze
