#include <set>
#include <stdexcept>

#include "analyze/model_import.hpp"

namespace strata::analyze {
namespace {

std::string base64_decode(const std::string& in) {
  static const std::string chars =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  int bits = 0, value = 0;
  for (char c : in) {
    const auto pos = chars.find(c);
    if (pos == std::string::npos) break;
    value = (value << 6) | int(pos);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(char((value >> bits) & 0xff));
    }
  }
  return out;
}

std::string attr_string(const Json& node, const char* key) {
  const auto attr = node.find("attr");
  if (attr == node.end() || !attr->contains(key)) return {};
  return base64_decode(attr->at(key).value("s", ""));
}

std::vector<std::string> attr_strings(const Json& node, const char* key) {
  std::vector<std::string> out;
  const auto attr = node.find("attr");
  if (attr == node.end() || !attr->contains(key)) return out;
  const Json& list = attr->at(key).at("list");
  if (list.contains("s"))
    for (const Json& s : list.at("s")) out.push_back(base64_decode(s.get<std::string>()));
  return out;
}

int attr_int_at(const Json& node, const char* key, size_t index, int fallback) {
  const auto attr = node.find("attr");
  if (attr == node.end() || !attr->contains(key)) return fallback;
  const Json& list = attr->at(key).at("list");
  if (!list.contains("i") || list.at("i").size() <= index) return fallback;
  return std::stoi(list.at("i")[index].get<std::string>());
}

std::string clean_input(std::string name) {
  if (auto colon = name.find(':'); colon != std::string::npos) name.resize(colon);
  return name;
}

struct GraphImporter {
  const TfjsModel& model;
  NetBuilder& b;

  const Tensor& constant(const std::string& name) const {
    const auto it = model.weights.find(name);
    if (it == model.weights.end()) throw std::runtime_error("model: missing constant " + name);
    return it->second;
  }
  bool is_constant(const std::string& name) const { return model.weights.count(name) != 0; }

  Activation fused_activation(const Json& node) const {
    for (const auto& op : attr_strings(node, "fused_ops")) {
      if (op == "Relu6") return Activation::relu6;
      if (op == "Relu") return Activation::relu;
      if (op != "BiasAdd") throw std::runtime_error("model: unsupported fused op " + op);
    }
    return Activation::none;
  }

  void conv(const std::string& name, const std::vector<std::string>& in, const Json& node,
            bool depthwise) {
    const Activation act = fused_activation(node);
    const std::string conv_name = act == Activation::none ? name : name + "/linear";
    const std::string padding = attr_string(node, "padding");
    if (padding != "SAME" && padding != "VALID")
      throw std::runtime_error("model: padding " + padding);
    b.conv(conv_name, in.at(0), constant(in.at(1)), in.size() > 2 ? &constant(in.at(2)) : nullptr,
           attr_int_at(node, "strides", 1, 1), padding == "SAME", {}, depthwise);
    if (act != Activation::none) b.activation(name, conv_name, act);
  }

  // A scalar constant operand of Mul/Sub on the image.
  float scalar(const std::vector<std::string>& in, std::string& tensor) const {
    const Tensor* value = nullptr;
    for (const auto& name : in) {
      if (is_constant(name))
        value = &constant(name);
      else
        tensor = name;
    }
    if (value == nullptr || value->size() != 1 || tensor.empty())
      throw std::runtime_error("model: elementwise op needs one tensor and one scalar constant");
    return value->values[0];
  }

  void node(const Json& n, const std::vector<std::string>& in) {
    const std::string op = n.at("op");
    const std::string name = n.at("name");
    std::string x;
    if (op == "Placeholder") {
      b.alias(name, "input");
    } else if (op == "Mul") {
      const float c = scalar(in, x);
      b.affine(name, x, c, 0.0f);
    } else if (op == "Sub") {
      const float c = scalar(in, x);
      if (in.at(0) != x) throw std::runtime_error("model: constant minus tensor");
      b.affine(name, x, 1.0f, -c);
    } else if (op == "_FusedConv2D" || op == "FusedDepthwiseConv2dNative") {
      conv(name, in, n, op != "_FusedConv2D");
    } else if (op == "AddV2" || op == "Add") {
      b.add(name, in.at(0), in.at(1));
    } else if (op == "AvgPool" || op == "MaxPool") {
      const int size = attr_int_at(n, "ksize", 1, 1);
      const Shape s = b.shape(in.at(0));
      if (op == "AvgPool" && size == s.h && size == s.w)
        b.global_average(name, in.at(0));
      else
        b.pool(name, in.at(0), op == "MaxPool", size, attr_int_at(n, "strides", 1, 1),
               attr_string(n, "padding") == "SAME");
    } else if (op == "Squeeze" || op == "Identity" || op == "Reshape") {
      b.alias(name, in.at(0));
    } else if (op == "_FusedMatMul" || op == "MatMul") {
      const Activation act = fused_activation(n);
      const std::string dense_name = act == Activation::none ? name : name + "/linear";
      b.dense(dense_name, in.at(0), constant(in.at(1)),
              in.size() > 2 ? &constant(in.at(2)) : nullptr);
      if (act != Activation::none) b.activation(name, dense_name, act);
    } else if (op == "Softmax") {
      b.activation(name, in.at(0), Activation::softmax);
    } else {
      throw std::runtime_error("model: unsupported graph op " + op);
    }
  }
};

}  // namespace

std::unique_ptr<Network> import_graph_model(const TfjsModel& model, NetBuilder& builder) {
  const Json& nodes = model.topology.at("node");
  int input_size = 224;
  for (const Json& n : nodes)
    if (n.at("op") == "Placeholder") {
      const Json& dims = n.at("attr").at("shape").at("shape").at("dim");
      input_size = std::stoi(dims.at(1).at("size").get<std::string>());
    }
  builder.input({3, input_size, input_size});
  GraphImporter importer{model, builder};
  // Nodes in dependency order (the JSON lists them in no guaranteed order).
  std::set<std::string> done;
  std::string last;
  bool progress = true;
  while (progress) {
    progress = false;
    for (const Json& n : nodes) {
      const std::string name = n.at("name");
      if (n.at("op") == "Const" || done.count(name)) continue;
      std::vector<std::string> in;
      bool ready = true;
      for (const Json& i : n.value("input", Json::array())) {
        const std::string s = i.get<std::string>();
        if (s.starts_with("^")) continue;
        in.push_back(clean_input(s));
        if (!importer.is_constant(in.back()) && !builder.has(in.back())) ready = false;
      }
      if (!ready) continue;
      importer.node(n, in);
      done.insert(name);
      last = name;
      progress = true;
    }
  }
  return builder.finish(last);
}

}  // namespace strata::analyze
