#pragma once
// Turns a loaded TF.js model into a runnable network: Keras layers-models (nsfwjs MobileNetV2
// and InceptionV3) and TF graph-models (nsfwjs MobileNetV2 "mid", width 1.4).
#include <memory>

#include "analyze/net_builder.hpp"
#include "analyze/tfjs_model.hpp"

namespace strata::analyze {

// Feed the model's layers to `builder` and finish it. Throw std::runtime_error naming an
// unsupported layer or op (UnsupportedByBackend when only this builder lacks it).
std::unique_ptr<Network> import_keras_layers(const TfjsModel& model, NetBuilder& builder);
std::unique_ptr<Network> import_graph_model(const TfjsModel& model, NetBuilder& builder);
std::unique_ptr<Network> import_model(const TfjsModel& model, NetBuilder& builder);

enum class NetBackend { xnnpack, opencv };
// The model on `preferred`, else (a model XNNPACK cannot run) on OpenCV DNN.
std::unique_ptr<Network> load_network(const TfjsModel& model,
                                      NetBackend preferred = NetBackend::xnnpack);

}  // namespace strata::analyze
