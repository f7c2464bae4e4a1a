#include <stdexcept>

#include "analyze/dnn_builder.hpp"
#include "analyze/model_import.hpp"
#include "analyze/xnn_builder.hpp"

namespace strata::analyze {
namespace {

struct KerasImporter {
  const TfjsModel& model;
  NetBuilder& b;
  std::map<std::string, std::pair<std::string, Pads>>
      paddings;  // ZeroPadding2D, applied by the next conv

  const Tensor& weight(const std::string& layer, const char* what) const {
    const auto it = model.weights.find(layer + "/" + what);
    if (it == model.weights.end())
      throw std::runtime_error("model: missing weight " + layer + "/" + what);
    return it->second;
  }
  const Tensor* optional_weight(const std::string& layer, const char* what) const {
    const auto it = model.weights.find(layer + "/" + what);
    return it == model.weights.end() ? nullptr : &it->second;
  }

  static Activation activation_of(const std::string& name) {
    if (name == "linear") return Activation::none;
    if (name == "relu") return Activation::relu;
    if (name == "relu6") return Activation::relu6;
    if (name == "softmax") return Activation::softmax;
    throw std::runtime_error("model: unsupported activation " + name);
  }

  void conv(const std::string& name, const std::string& input, const Json& c, bool depthwise) {
    std::string source = input;
    Pads pads;
    if (auto it = paddings.find(input); it != paddings.end()) std::tie(source, pads) = it->second;
    const Tensor& kernel = weight(name, depthwise ? "depthwise_kernel" : "kernel");
    const Tensor* bias = c.value("use_bias", true) ? &weight(name, "bias") : nullptr;
    const bool same = c.at("padding") == "same";
    const Activation act = activation_of(c.value("activation", "linear"));
    const std::string conv_name = act == Activation::none ? name : name + "/linear";
    b.conv(conv_name, source, kernel, bias, c.at("strides")[0].get<int>(), same, pads, depthwise);
    if (act != Activation::none) b.activation(name, conv_name, act);
  }

  void layer(const Json& l) {
    const std::string cls = l.at("class_name");
    const std::string name = l.at("name");
    const Json& c = l.at("config");
    std::vector<std::string> in;
    if (!l.at("inbound_nodes").empty())
      for (const Json& node : l.at("inbound_nodes")[0]) in.push_back(node[0].get<std::string>());
    if (cls == "InputLayer") {
      b.alias(name, "input");
    } else if (cls == "ZeroPadding2D") {
      const Json& p = c.at("padding");
      paddings[name] = {in.at(0), Pads{p[0][0], p[0][1], p[1][0], p[1][1]}};
    } else if (cls == "Conv2D" || cls == "DepthwiseConv2D") {
      conv(name, in.at(0), c, cls == "DepthwiseConv2D");
    } else if (cls == "BatchNormalization") {
      b.fold_batchnorm(in.at(0), c.value("scale", true) ? &weight(name, "gamma") : nullptr,
                       weight(name, "beta"), weight(name, "moving_mean"),
                       weight(name, "moving_variance"), c.value("epsilon", 1e-3f));
      b.alias(name, in.at(0));
    } else if (cls == "ReLU") {
      const bool six = c.contains("max_value") && !c.at("max_value").is_null() &&
                       c.at("max_value").get<float>() == 6.0f;
      b.activation(name, in.at(0), six ? Activation::relu6 : Activation::relu);
    } else if (cls == "Activation") {
      b.activation(name, in.at(0), activation_of(c.at("activation")));
    } else if (cls == "Add") {
      b.add(name, in.at(0), in.at(1));
    } else if (cls == "Concatenate") {
      b.concat(name, in);
    } else if (cls == "AveragePooling2D" || cls == "MaxPooling2D") {
      const int size = c.at("pool_size")[0];
      const Shape s = b.shape(in.at(0));
      if (cls == "AveragePooling2D" && size == s.h && size == s.w && c.at("padding") == "valid")
        b.global_average(name, in.at(0));
      else
        b.pool(name, in.at(0), cls == "MaxPooling2D", size, c.at("strides")[0],
               c.at("padding") == "same");
    } else if (cls == "GlobalAveragePooling2D") {
      b.global_average(name, in.at(0));
    } else if (cls == "Flatten" || cls == "Dropout") {
      const Shape s = b.shape(in.at(0));
      if (cls == "Flatten" && (s.h != 1 || s.w != 1))
        throw std::runtime_error("model: Flatten of a spatial tensor");
      b.alias(name, in.at(0));
    } else if (cls == "Dense") {
      const Activation act = activation_of(c.value("activation", "linear"));
      const std::string dense_name = act == Activation::none ? name : name + "/linear";
      b.dense(dense_name, in.at(0), weight(name, "kernel"),
              c.value("use_bias", true) ? &weight(name, "bias") : nullptr);
      if (act != Activation::none) b.activation(name, dense_name, act);
    } else {
      throw std::runtime_error("model: unsupported Keras layer " + cls);
    }
  }
};

}  // namespace

std::unique_ptr<Network> import_keras_layers(const TfjsModel& model, NetBuilder& builder) {
  const Json& config = model.topology.at("model_config").at("config");
  const Json& layers = config.at("layers");
  const Json& shape = layers.at(0).at("config").at("batch_input_shape");
  builder.input({shape.at(3).get<int>(), shape.at(1).get<int>(), shape.at(2).get<int>()});
  KerasImporter importer{model, builder, {}};
  for (const Json& l : layers) importer.layer(l);
  return builder.finish(config.at("output_layers").at(0).at(0));
}

std::unique_ptr<Network> import_model(const TfjsModel& model, NetBuilder& builder) {
  return model.format == "graph-model" ? import_graph_model(model, builder)
                                       : import_keras_layers(model, builder);
}

std::unique_ptr<Network> load_network(const TfjsModel& model, NetBackend preferred) {
  if (preferred == NetBackend::xnnpack) {
    try {
      XnnBuilder builder;
      return import_model(model, builder);
    } catch (const UnsupportedByBackend&) {
      // e.g. InceptionV3's concatenations: OpenCV DNN runs it
    }
  }
  DnnBuilder builder;
  return import_model(model, builder);
}

}  // namespace strata::analyze
