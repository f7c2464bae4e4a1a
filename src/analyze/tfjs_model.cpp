#include "analyze/tfjs_model.hpp"

#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace strata::analyze {
namespace {

std::string read_all(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path.string());
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

size_t element_count(const std::vector<int>& shape) {
  size_t n = 1;
  for (int d : shape) n *= static_cast<size_t>(d);
  return n;
}

size_t dtype_size(const std::string& dtype) {
  if (dtype == "uint8") return 1;
  if (dtype == "uint16" || dtype == "float16") return 2;
  if (dtype == "float32" || dtype == "int32") return 4;
  throw std::runtime_error("unsupported weight dtype " + dtype);
}

// Decodes one weight at `at` of the concatenated shards; returns the bytes consumed.
size_t decode_weight(const Json& spec, const std::string& data, size_t at, Tensor& out) {
  out.shape = spec.at("shape").get<std::vector<int>>();
  const size_t n = element_count(out.shape);
  out.values.resize(n);
  const auto q = spec.find("quantization");
  const std::string dtype =
      q != spec.end() ? q->at("dtype").get<std::string>() : spec.at("dtype").get<std::string>();
  const size_t bytes = n * dtype_size(dtype);
  if (at + bytes > data.size())
    throw std::runtime_error("weight shards too short for " + spec.at("name").get<std::string>());
  const auto* p = reinterpret_cast<const uint8_t*>(data.data() + at);
  if (q != spec.end() && (dtype == "uint8" || dtype == "uint16")) {
    const double min = q->at("min").get<double>();
    const double scale = q->at("scale").get<double>();
    for (size_t i = 0; i < n; ++i) {
      const unsigned v = dtype == "uint8" ? p[i] : unsigned(p[2 * i] | (p[2 * i + 1] << 8));
      out.values[i] = static_cast<float>(min + scale * v);
    }
  } else if (dtype == "float32") {
    std::memcpy(out.values.data(), p, bytes);
  } else if (dtype == "int32") {
    for (size_t i = 0; i < n; ++i) {
      int32_t v;
      std::memcpy(&v, p + 4 * i, 4);
      out.values[i] = static_cast<float>(v);
    }
  } else {
    throw std::runtime_error("unsupported quantisation " + dtype);
  }
  return bytes;
}

}  // namespace

TfjsModel load_tfjs_model(const std::filesystem::path& folder) {
  const Json manifest = Json::parse(read_all(folder / "model.json"));
  TfjsModel model;
  model.topology = manifest.at("modelTopology");
  model.format =
      manifest.value("format", model.topology.contains("node") ? "graph-model" : "layers-model");
  for (const Json& group : manifest.at("weightsManifest")) {
    std::string data;
    for (const Json& path : group.at("paths")) data += read_all(folder / path.get<std::string>());
    size_t at = 0;
    for (const Json& spec : group.at("weights"))
      at += decode_weight(spec, data, at, model.weights[spec.at("name").get<std::string>()]);
  }
  return model;
}

}  // namespace strata::analyze
