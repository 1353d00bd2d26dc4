// End-to-end validation: NeuSight's measured inference latencies of whole models (e2e_labels.csv)
// against dse's simulation of the same zoo models with the kernel timing model.
#pragma once

#include <string>
#include <vector>

namespace dse {

struct E2eRow {
  std::string gpu;     // the spec's name
  std::string config;  // NeuSight's "model-mode-seq-batch[-fusion]"
  double measured_ms = 0;
  double predicted_ms = 0;
  double error() const { return predicted_ms / measured_ms - 1; }
};

// Columns: device (spaces as '_'), config, num_layer, e2e_latency_ms. Inference rows of zoo models
// on catalog GPUs are simulated (fp32, one stream; "-fusion" rows after dse's fusion transforms);
// the others are skipped. UserError with FILE:LINE:COL for a malformed cell.
std::vector<E2eRow> predict_e2e_labels(const std::string& file);

}  // namespace dse
