// Whether an experiment's models fit in its device's memory (Device::memory_bytes: a GPU's, an
// accelerator's DRAM): each model's weights, KV caches and peak of live activations
// (models/graph_memory.h), all resident at once. The models of a one-pass run may run together on
// their streams, so their needs add up. A serving tenant keeps its weights once and, per instance,
// the activations and KV caches of its largest batch (its batching's max_batch where a governor
// sets the batch, else the largest the batching forms; scaled from the model's batch, as
// activations and caches grow with it; a model file runs at its own batch).
//
// Contract: a run (`dse run`) refuses what does not fit; a search's trial that does not fit is
// infeasible with the message (search/search_run.cpp), not an error that stops the search.
#pragma once

#include "sim/config/config_node.h"
#include "sim/run/experiment.h"

namespace dse {

class DeviceMemoryError : public ConfigError {
 public:
  using ConfigError::ConfigError;
};

// Throws DeviceMemoryError where the models do not fit, at the key that sets what does not fit:
// the model's batch (or its entry) for one model, workload.models for several, a serving tenant's
// batching (its largest batch) or workload.serving.tenants. `root` is the experiment's config.
void check_device_memory(const Experiment& experiment, const ConfigNode& root);

}  // namespace dse
