#pragma once
// Reads a TensorFlow.js model folder (model.json + binary weight shards): the topology JSON
// (Keras "layers-model" or TF "graph-model") and every weight, dequantised to float
// (value = min + scale * q for uint8/uint16 quantisation, as tfjs does).
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "core/json.hpp"

namespace strata::analyze {

struct Tensor {
  std::vector<int> shape;  // as stored (TF order: HWIO kernels, NHWC activations)
  std::vector<float> values;
  size_t size() const { return values.size(); }
};

struct TfjsModel {
  std::string format;  // "layers-model" or "graph-model"
  Json topology;       // modelTopology
  std::map<std::string, Tensor> weights;
};

// Throws std::runtime_error with a message naming the problem.
TfjsModel load_tfjs_model(const std::filesystem::path& folder);

}  // namespace strata::analyze
