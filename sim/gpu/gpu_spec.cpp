#include "sim/gpu/gpu_spec.h"

#include <algorithm>
#include <array>
#include <cmath>

#include <fmt/format.h>

#include "sim/config/config_loader.h"
#include "sim/config/hardware_catalog.h"

namespace dse {
namespace {

constexpr std::array<const char*, 5> kCudaTypes{"fp64", "fp32", "fp16", "bf16", "int8"};
constexpr std::array<const char*, 6> kTensorTypes{"fp64", "tf32", "fp16", "bf16", "fp8", "int8"};

std::map<std::string, double> read_table(const ConfigNode& table, std::span<const char* const> types, double low,
                                         double high) {
  table.expect_map("values by compute type");
  std::map<std::string, double> out;
  for (const char* type : types) {
    if (const auto value = table.param<double>(type).in_range(low, high).optional()) out[type] = *value;
  }
  return out;
}

std::optional<double> lookup(const std::map<std::string, double>& table, std::string_view type) {
  const auto it = table.find(std::string(type));
  return it == table.end() ? std::nullopt : std::optional<double>(it->second);
}

// A {cuda_core: {...}, tensor_core: {...}} pair of tables; cuda_core.fp32 is required.
void read_pair(const ConfigNode& root, const char* key, const char* what, double low, double high,
               std::map<std::string, double>& cuda, std::map<std::string, double>& tensor) {
  const ConfigNode& node = root.at(key, what);
  node.expect_map("cuda_core and tensor_core tables");
  cuda = read_table(node.at("cuda_core", "values of the CUDA cores"), kCudaTypes, low, high);
  if (const ConfigNode* t = node.find("tensor_core")) tensor = read_table(*t, kTensorTypes, low, high);
  if (!cuda.contains("fp32"))
    node.at("cuda_core", "").fail("expected an fp32 entry (every GPU model needs FP32), found none");
}

}  // namespace

std::optional<double> GpuSpec::cuda_core_peak(std::string_view type) const { return lookup(cuda_core_tflops, type); }
std::optional<double> GpuSpec::tensor_core_peak(std::string_view type) const {
  return lookup(tensor_core_tflops, type);
}

std::optional<double> GpuSpec::flops_per_clock_per_sm(std::string_view type, bool matrix) const {
  if (matrix && type != "fp32") {
    if (const auto value = lookup(tensor_core_flops_per_clock, type)) return value;
  }
  return lookup(cuda_core_flops_per_clock, type);
}

std::vector<double> SupportedClocks::list_mhz() const {
  if (!listed_mhz.empty()) return listed_mhz;
  std::vector<double> out;
  const int steps = static_cast<int>(std::floor((max_mhz - min_mhz) / step_mhz + 1e-9));
  for (int i = 0; i <= steps; ++i) out.push_back(std::floor(max_mhz - i * step_mhz + 1e-9));
  if (out.back() > min_mhz + 1e-9) out.push_back(min_mhz);
  return out;
}

std::string SupportedClocks::describe() const {
  if (!listed_mhz.empty())
    return fmt::format("{} clocks from {:g} down to {:g} MHz", listed_mhz.size(), listed_mhz.front(),
                       listed_mhz.back());
  return fmt::format("{:g} to {:g} MHz in steps of {:g} MHz{}", min_mhz, max_mhz, step_mhz,
                     step_mhz == std::floor(step_mhz) ? "" : ", each rounded down to whole MHz");
}

std::vector<double> GpuSpec::clock_table_mhz() const {
  if (supported_clocks) {
    std::vector<double> table;
    for (const double mhz : supported_clocks->list_mhz())
      if (mhz <= boost_clock_mhz + 1e-9) table.push_back(mhz);  // entries above boost are never granted
    return table;
  }
  // No driver table in the spec: the step of the tables that are (12.65 MHz on average on the
  // P100, 7.5 on the V100, 15 from Turing on), from boost down to 15 % of it (the A100's and L4's
  // lowest entries are 15 and 10 % of boost, the T4's 19 %, the V100's 10 %).
  const double step = architecture == GpuArchitecture::pascal  ? 12.65
                      : architecture == GpuArchitecture::volta ? 7.5
                                                               : 15.0;
  return SupportedClocks{std::floor(0.15 * boost_clock_mhz), boost_clock_mhz, step, {}}.list_mhz();
}

double unmeasured_dram_stream_share(DramType type) {
  // Medians of the catalog's measured dram_stream_share (each spec cites its measurement;
  // tests/sim/test_gpu_specs.cpp recomputes them). HBM: P100 0.737, A100 80GB PCIe 0.866, A100 40GB
  // PCIe 0.881, H200 0.885, V100 PCIe 0.909, H100 PCIe 0.916. GDDR: T4 0.739, P4 0.751, L4 0.781.
  // A wide HBM interface reaches more of its peak than GDDR does, the first HBM2 GPU (P100) aside.
  return is_hbm(type) ? 0.883 : 0.751;
}

double GpuSpec::stream_bandwidth_bytes_per_s() const {
  return dram_bandwidth_gbps * 1e9 * dram_stream_share.value_or(unmeasured_dram_stream_share(memory_type));
}

double GpuSpec::min_power_limit_w() const { return power_limit_min_w.value_or(tdp_w / 2); }
double GpuSpec::max_power_limit_w() const { return power_limit_max_w.value_or(tdp_w); }

GpuSpec read_gpu_spec(const ConfigNode& root) {
  root.expect_map("a GPU spec: name, sm_count, clocks_mhz, sm, throughput, peak_tflops, ...");
  GpuSpec spec;
  spec.name = root.param<std::string>("name").required();
  spec.display_name = root.param<std::string>("display_name").with_default(spec.name);
  if (const ConfigNode* names = root.find("device_names"))
    for (const auto& item : names->items()) spec.device_names.push_back(item.as<std::string>());
  spec.architecture = read_enum(root, "architecture", kGpuArchitectureNames, "an architecture");
  spec.compute_capability = root.param<double>("compute_capability").in_range(3.0, 20.0).required();
  spec.process_nm = root.param<double>("process_nm").in_range(1, 100).required();
  spec.sm_count = root.param<int>("sm_count").in_range(1, 4096).required();
  const ConfigNode& clocks = root.at("clocks_mhz", "base and boost SM clocks");
  clocks.expect_map("base and boost SM clocks in MHz");
  spec.base_clock_mhz = clocks.param<double>("base").in_range(100, 10000).required();
  spec.boost_clock_mhz = clocks.param<double>("boost").in_range(spec.base_clock_mhz, 10000).required();
  if (const ConfigNode* supported = clocks.find("supported")) {
    SupportedClocks list;
    if (supported->is_sequence()) {
      // The driver's list itself, highest first: from boost or above down to base or below.
      for (const ConfigNode& item : supported->items()) {
        const double mhz = item.as<double>();
        const double above = list.listed_mhz.empty() ? 10000.0 : list.listed_mhz.back();
        if (!(mhz >= 1 && mhz < above))
          item.fail(fmt::format("expected an SM clock in MHz below the one before it ({:g}), highest first, found {:g}",
                                above, mhz));
        list.listed_mhz.push_back(mhz);
      }
      if (list.listed_mhz.empty() || list.listed_mhz.front() < spec.boost_clock_mhz ||
          list.listed_mhz.back() > spec.base_clock_mhz)
        supported->fail(
            fmt::format("expected the driver's SM clocks from the boost clock ({:g} MHz) or above down "
                        "to the base clock ({:g} MHz) or below, found {} clocks",
                        spec.boost_clock_mhz, spec.base_clock_mhz, list.listed_mhz.size()));
      list.max_mhz = list.listed_mhz.front();
      list.min_mhz = list.listed_mhz.back();
    } else {
      supported->expect_map("the driver's SM clock list: min, max, step (MHz), or the list itself");
      list.min_mhz = supported->param<double>("min").in_range(1, spec.base_clock_mhz).required();
      list.max_mhz = supported->param<double>("max").in_range(spec.boost_clock_mhz, 10000).required();
      list.step_mhz = supported->param<double>("step").in_range(0.1, list.max_mhz - list.min_mhz + 0.1).required();
    }
    spec.supported_clocks = list;
  }
  spec.memory_gib = root.param<double>("memory_gib").in_range(0.125, 65536).required();
  spec.memory_type = read_enum(root, "memory_type", kDramTypeNames, "a DRAM technology");
  spec.dram_bandwidth_gbps = root.param<double>("dram_bandwidth_gbps").in_range(1, 1e6).required();
  spec.dram_stream_share = root.param<double>("dram_stream_share").in_range(0.3, 1.0).optional();
  spec.l2_cache_mib = root.param<double>("l2_cache_mib").in_range(0, 65536).required();
  spec.l1_cache_kib = root.param<double>("l1_cache_kib").in_range(0, 65536).required();
  spec.tdp_w = root.param<double>("tdp_w").in_range(1, 100000).required();
  if (const ConfigNode* limits = root.find("power_limit_w")) {
    limits->expect_map("the power-limit range: min, max (W)");
    spec.power_limit_min_w = limits->param<double>("min").in_range(1, spec.tdp_w).required();
    spec.power_limit_max_w = limits->param<double>("max").in_range(spec.tdp_w, 100000).required();
  }
  spec.idle_w = root.param<double>("idle_w").in_range(0, spec.tdp_w).optional();
  const ConfigNode& sm = root.at("sm", "per-SM limits");
  sm.expect_map(
      "per-SM limits: max_threads, max_blocks, registers, shared_memory_kib, max_shared_per_block_kib, "
      "warp_schedulers");
  spec.sm.max_threads = sm.param<int>("max_threads").in_range(32, 65536).required();
  spec.sm.max_blocks = sm.param<int>("max_blocks").in_range(1, 1024).required();
  spec.sm.registers = sm.param<int>("registers").in_range(1024, 1 << 22).required();
  spec.sm.shared_memory_kib = sm.param<int>("shared_memory_kib").in_range(1, 1 << 16).required();
  spec.sm.max_shared_per_block_kib =
      sm.param<int>("max_shared_per_block_kib").in_range(1, spec.sm.shared_memory_kib).required();
  spec.sm.warp_schedulers = sm.param<int>("warp_schedulers").in_range(1, 16).required();
  spec.fp32_lanes_shared_with_int32 = root.param<int>("fp32_lanes_shared_with_int32").in_range(0, 1024).with_default(0);
  spec.simt_gemm_efficiency = root.param<double>("simt_gemm_efficiency").in_range(0.05, 1).optional();
  spec.simt_gemm_exposed_store_share = root.param<double>("simt_gemm_exposed_store_share").in_range(0, 1).optional();
  spec.simt_tensor_energy_ratio = root.param<double>("simt_tensor_energy_ratio").in_range(0.1, 100).optional();
  spec.tensor_energy_scale = root.param<double>("tensor_energy_scale").in_range(0.2, 5).with_default(1.0);
  if (const ConfigNode* tlb = root.find("l1_tlb")) {
    tlb->expect_map("the SM's L1 TLB as measured: reach_mib, page_kib, sms_sharing");
    L1Tlb measured;
    measured.reach_bytes = tlb->param<double>("reach_mib").in_range(0.0625, 1 << 20).required() * 1024 * 1024;
    measured.page_bytes = tlb->param<double>("page_kib").in_range(4, 1 << 20).required() * 1024;
    measured.sms_sharing = tlb->param<int>("sms_sharing").in_range(1, 64).required();
    if (measured.page_bytes > measured.reach_bytes)
      tlb->fail("page_kib is larger than reach_mib: the reach is what all of the TLB's entries map together");
    tlb->check_unknown_keys();
    spec.l1_tlb = measured;
  }
  if (const ConfigNode* dram = root.find("dram_activation")) {
    dram->expect_map("the DRAM devices' row-activation limit: channels, rrd_ns, faw_ns, row_span_kib");
    DramActivationWindow window;
    window.channels = dram->param<int>("channels").in_range(1, 1024).required();
    window.rrd_ns = dram->param<double>("rrd_ns").in_range(0.1, 1000).required();
    window.faw_ns = dram->param<double>("faw_ns").in_range(0.1, 1000).required();
    window.row_span_bytes = dram->param<double>("row_span_kib").in_range(0.25, 64).required() * 1024;
    dram->check_unknown_keys();
    spec.dram_activation = window;
  }
  read_pair(root, "flops_per_clock_per_sm", "FLOPs per SM per clock by unit and type", 0.5, 1e6,
            spec.cuda_core_flops_per_clock, spec.tensor_core_flops_per_clock);
  read_pair(root, "peak_tflops", "datasheet peaks by unit and type", 0.001, 1e6, spec.cuda_core_tflops,
            spec.tensor_core_tflops);
  root.check_unknown_keys();
  return spec;
}

std::vector<GpuSpec> read_catalog_gpu_specs(const HardwareCatalog& catalog) {
  std::vector<GpuSpec> specs;
  for (const auto& name : catalog.names("gpu"))
    specs.push_back(read_gpu_spec(load_config_file(*catalog.find("gpu", name))));
  return specs;
}

const GpuSpec* find_spec_by_device_name(const std::vector<GpuSpec>& specs, std::string_view device) {
  for (const auto& spec : specs)
    if (std::find(spec.device_names.begin(), spec.device_names.end(), device) != spec.device_names.end()) return &spec;
  return nullptr;
}

}  // namespace dse
