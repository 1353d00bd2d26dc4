// End-to-end validation: NeuSight's measured inference latencies of whole models (e2e_labels.csv)
// against dse's simulation of the same zoo models with the kernel timing model.
#pragma once

#include <string>
#include <vector>

namespace dse {

struct E2eRow {
  std::string gpu;                   // the spec's name
  std::string config;                // NeuSight's "model-mode-seq-batch[-fusion]"
  bool forward_of_training = false;  // a training row, compared by its forward pass (fw_latency_ms)
  double measured_ms = 0;
  double predicted_ms = 0;
  double error() const { return predicted_ms / measured_ms - 1; }
};

// A row dse cannot simulate, and why.
struct E2eSkip {
  std::size_t line = 0;
  std::string device;  // as the file names it
  std::string config;
  std::string reason;
};

struct E2eValidation {
  std::vector<E2eRow> rows;
  std::vector<E2eSkip> skipped;
};

// Columns: device (spaces as '_'), config, num_layer, e2e_latency_ms and, where present,
// fw_latency_ms. Inference rows of zoo models on catalog GPUs are simulated (fp32, one stream;
// "-fusion" rows after dse's fusion transforms); training rows of one GPU are compared by their
// forward pass (fw_latency_ms: an inference of the same graph, as dse simulates it). Every other row
// is listed in `skipped` with its reason. UserError with FILE:LINE:COL for a malformed cell.
E2eValidation predict_e2e_labels(const std::string& file);

}  // namespace dse
