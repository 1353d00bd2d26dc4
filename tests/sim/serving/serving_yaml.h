// Helpers of the serving tests: an experiment from YAML text, and a one-tenant Poisson workload.
#pragma once

#include <string>

#include "sim/config/config_loader.h"
#include "sim/run/experiment.h"

namespace dse::test {

inline Experiment serving_experiment(const std::string& yaml, const std::string& file = "test.yaml") {
  ConfigNode root = load_config_text(yaml, file);
  return read_experiment(root, file);
}

// ResNet-50 fp16 on an H200: 200,000 Poisson requests at `rate_per_s`, batched by `batching`;
// `extra` goes into the serving block.
inline std::string poisson_yaml(double rate_per_s, const std::string& batching, const std::string& extra = "") {
  return "name: t\n"
         "workload:\n"
         "  models: [{name: resnet50, dtype: fp16}]\n"
         "  serving:\n"
         "    requests: 200000\n"
         "    seed: 7\n" +
         extra +
         "    tenants:\n"
         "      - arrivals: {name: poisson, rate_per_s: " +
         std::to_string(rate_per_s) + "}\n        batching: " + batching +
         "\n"
         "device: {gpu: h200}\n"
         "output: ~\n";
}

}  // namespace dse::test
