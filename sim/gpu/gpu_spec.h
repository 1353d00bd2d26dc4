// A GPU as its datasheet describes it (configs/hardware/gpu/*.yaml).
#pragma once

#include <map>
#include <optional>
#include <string>

#include "models/tensor.h"
#include "sim/config/config_node.h"

namespace dse {

struct GpuSpec {
  std::string name;
  std::string display_name;
  int sm_count = 0;
  double boost_clock_mhz = 0;
  double memory_gib = 0;
  double dram_bandwidth_gbps = 0;  // GB/s, 1e9 bytes per second
  double l2_cache_mib = 0;
  double tdp_w = 0;
  // Dense peak throughput in TFLOPS (TOPS for int8) by compute type; absent = not supported.
  std::map<std::string, double> cuda_core_tflops;    // fp64, fp32, fp16, bf16
  std::map<std::string, double> tensor_core_tflops;  // fp64, tf32, fp16, bf16, fp8, int8

  std::optional<double> cuda_core_peak(std::string_view type) const;
  std::optional<double> tensor_core_peak(std::string_view type) const;
};

// Reads and validates a spec; ConfigErrors name the spec file's line and key.
GpuSpec read_gpu_spec(const ConfigNode& root);

}  // namespace dse
