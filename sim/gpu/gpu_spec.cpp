#include "sim/gpu/gpu_spec.h"

#include <array>

namespace dse {
namespace {

std::map<std::string, double> read_peaks(const ConfigNode& table, std::span<const char* const> types) {
  table.expect_map("peak TFLOPS by compute type");
  std::map<std::string, double> out;
  for (const char* type : types) {
    if (const auto tflops = table.param<double>(type).in_range(0.001, 1e6).optional()) out[type] = *tflops;
  }
  return out;
}

std::optional<double> lookup(const std::map<std::string, double>& table, std::string_view type) {
  const auto it = table.find(std::string(type));
  return it == table.end() ? std::nullopt : std::optional<double>(it->second);
}

}  // namespace

std::optional<double> GpuSpec::cuda_core_peak(std::string_view type) const { return lookup(cuda_core_tflops, type); }
std::optional<double> GpuSpec::tensor_core_peak(std::string_view type) const {
  return lookup(tensor_core_tflops, type);
}

GpuSpec read_gpu_spec(const ConfigNode& root) {
  root.expect_map("a GPU spec: name, sm_count, dram_bandwidth_gbps, peak_tflops, ...");
  GpuSpec spec;
  spec.name = root.param<std::string>("name").required();
  spec.display_name = root.param<std::string>("display_name").with_default(spec.name);
  spec.sm_count = root.param<int>("sm_count").in_range(1, 4096).required();
  spec.boost_clock_mhz = root.param<double>("boost_clock_mhz").in_range(100, 10000).required();
  spec.memory_gib = root.param<double>("memory_gib").in_range(0.125, 65536).required();
  spec.dram_bandwidth_gbps = root.param<double>("dram_bandwidth_gbps").in_range(1, 1e6).required();
  spec.l2_cache_mib = root.param<double>("l2_cache_mib").in_range(0, 65536).required();
  spec.tdp_w = root.param<double>("tdp_w").in_range(1, 100000).required();

  const ConfigNode& peaks = root.at("peak_tflops", "a mapping with cuda_core and tensor_core tables");
  peaks.expect_map("cuda_core and tensor_core tables");
  static constexpr std::array<const char*, 4> kCudaTypes{"fp64", "fp32", "fp16", "bf16"};
  static constexpr std::array<const char*, 6> kTensorTypes{"fp64", "tf32", "fp16", "bf16", "fp8", "int8"};
  spec.cuda_core_tflops = read_peaks(peaks.at("cuda_core", "peak TFLOPS of the CUDA cores"), kCudaTypes);
  if (const ConfigNode* tensor = peaks.find("tensor_core")) spec.tensor_core_tflops = read_peaks(*tensor, kTensorTypes);
  if (!spec.cuda_core_peak("fp32")) {
    peaks.at("cuda_core", "").fail("expected an fp32 entry (every GPU model needs the FP32 peak), found none");
  }
  root.check_unknown_keys();
  return spec;
}

}  // namespace dse
