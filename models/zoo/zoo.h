// The model zoo: graph builders registered by name, parametric in batch, resolution and dtype.
//
// Contract: a builder returns a fresh Graph for the given parameters and is safe to call from many
// threads at once. Parameters are validated by the caller (the config layer) against the ranges
// declared here; a builder may throw std::invalid_argument for shapes its architecture cannot take
// (a resolution too small for its down-sampling, say).
#pragma once

#include <functional>
#include <string>

#include "models/base/registry.h"
#include "models/graph.h"

namespace dse {

struct ModelParams {
  int batch = 1;
  DType dtype = DType::fp32;
  int resolution = 0;     // vision: input height = width in pixels; 0 = the model's native resolution
  int seq_len = 0;        // transformers: tokens processed at once; 0 = the model's default
  bool decode = false;    // decoders: one decoding step (seq_len new tokens, default 1) with a KV cache
  int past_len = 0;       // decoders in decode: tokens already in the KV cache
  bool training = false;  // transformers: the forward pass as training runs it, its dropouts active
};

// Valid ranges of ModelParams, checked by whoever reads them from user input.
inline constexpr int kMaxBatch = 65536;
inline constexpr int kMinResolution = 32;
inline constexpr int kMaxResolution = 8192;
inline constexpr int kMaxSeqLen = 1 << 20;

struct ModelZoo {
  static constexpr const char* family_name = "model";
  static constexpr const char* family_description = "DNN graphs built by name (the model zoo)";
  using Factory = std::function<Graph(const ModelParams&)>;
};

using ModelRegistry = Registry<ModelZoo>;

}  // namespace dse
