#pragma once
// Turns a loaded TF.js model into an OpenCV DNN network: Keras layers-models (nsfwjs
// MobileNetV2 and InceptionV3) and TF graph-models (nsfwjs MobileNetV2 "mid", width 1.4).
#include <opencv2/dnn.hpp>

#include <string>

#include "analyze/tfjs_model.hpp"

namespace strata::analyze {

struct ImportedNet {
  cv::dnn::Net net;
  std::string output_layer;
  int input_size = 224;  // square RGB input, NHWC in the model, NCHW for OpenCV
};

// Throws std::runtime_error naming an unsupported layer or op.
ImportedNet import_keras_layers(const TfjsModel& model);
ImportedNet import_graph_model(const TfjsModel& model);
ImportedNet import_model(const TfjsModel& model);

}  // namespace strata::analyze
