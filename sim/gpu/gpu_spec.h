// A GPU as its datasheet and the CUDA programming guide describe it (configs/hardware/gpu/*.yaml).
#pragma once

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "models/base/enum_table.h"
#include "models/tensor.h"
#include "sim/config/config_node.h"

namespace dse {

// Per-SM limits that decide occupancy (CUDA C++ Programming Guide, "Technical Specifications per
// Compute Capability").
struct SmLimits {
  int max_threads = 0;
  int max_blocks = 0;
  int registers = 0;          // 32-bit registers per SM
  int shared_memory_kib = 0;  // shared memory per SM usable by blocks
  int max_shared_per_block_kib = 0;
  int warp_schedulers = 0;  // warp schedulers (SM partitions), each issuing to its own share of the lanes
};

// An SM's first-level TLB as a pointer-chasing microbenchmark measured it: the bytes its entries
// map together (the reach: the working set beyond which every access's latency steps up), the page
// one entry maps, and how many SMs share it (two SMs whose chases slow each other down).
struct L1Tlb {
  double reach_bytes = 0;
  double page_bytes = 0;
  int sms_sharing = 1;
  double entries() const { return reach_bytes / page_bytes; }
};

// The DRAM's limit on opening rows (sim/gpu/dram_activation_model.h): `channels` devices (or
// clamshell pairs, which open rows together) that each open a row at most every `rrd_ns` (tRRD)
// and four per `faw_ns` (tFAW); one open row serves `row_span_bytes` of consecutive addresses (at
// most the device's page; less where the GPU interleaves addresses across channels more finely).
struct DramActivationWindow {
  int channels = 1;
  double rrd_ns = 0, faw_ns = 0;
  double row_span_bytes = 0;
  double activations_per_s() const { return channels / (std::max(rrd_ns, faw_ns / 4) * 1e-9); }
};

// The SM clocks the driver offers (nvidia-smi -q -d SUPPORTED_CLOCKS), in whole MHz as it prints
// them: max, max - step, ..., min, each rounded down (a V100's 7.5 MHz steps print as 1,380, 1,372,
// 1,365, 1,357), or, where the steps are irregular (a P100's alternate between 12 and 13 MHz), the
// list itself.
struct SupportedClocks {
  double min_mhz = 0, max_mhz = 0, step_mhz = 0;  // step 0: `listed_mhz` holds the list
  std::vector<double> listed_mhz;                 // highest first
  std::vector<double> list_mhz() const;           // highest first, as nvidia-smi lists them
  std::string describe() const;                   // "210 to 1410 MHz in steps of 15 MHz", "63 clocks from ..."
};

// NVIDIA's GPU architecture families (what decides cuBLAS's kernel choices, sim/gpu/gpu_lowering.cpp).
enum class GpuArchitecture { pascal, volta, turing, ampere, ada, hopper, blackwell };
inline constexpr EnumTable<GpuArchitecture, 7> kGpuArchitectureNames{{{
    {GpuArchitecture::pascal, "pascal"},
    {GpuArchitecture::volta, "volta"},
    {GpuArchitecture::turing, "turing"},
    {GpuArchitecture::ampere, "ampere"},
    {GpuArchitecture::ada, "ada"},
    {GpuArchitecture::hopper, "hopper"},
    {GpuArchitecture::blackwell, "blackwell"},
}}};

// DRAM technology (datasheets): what sets the energy of a DRAM byte (sim/gpu/gpu_power.cpp).
enum class DramType { gddr5, gddr5x, gddr6, gddr6x, hbm2, hbm2e, hbm3, hbm3e };
inline constexpr EnumTable<DramType, 8> kDramTypeNames{{{
    {DramType::gddr5, "gddr5"},
    {DramType::gddr5x, "gddr5x"},
    {DramType::gddr6, "gddr6"},
    {DramType::gddr6x, "gddr6x"},
    {DramType::hbm2, "hbm2"},
    {DramType::hbm2e, "hbm2e"},
    {DramType::hbm3, "hbm3"},
    {DramType::hbm3e, "hbm3e"},
}}};

struct GpuSpec {
  std::string name;
  std::string display_name;
  std::vector<std::string> device_names;  // what the driver reports, e.g. "Tesla T4"
  GpuArchitecture architecture = GpuArchitecture::ampere;
  double compute_capability = 0;
  double process_nm = 0;  // lithography node, nm
  int sm_count = 0;
  double base_clock_mhz = 0;   // the clock guaranteed at TDP under load
  double boost_clock_mhz = 0;  // the highest SM clock
  double memory_gib = 0;
  DramType memory_type = DramType::hbm2;
  double dram_bandwidth_gbps = 0;  // GB/s, 1e9 bytes per second
  // Share of dram_bandwidth_gbps a streaming kernel (elementwise ops, a device-to-device copy)
  // reached when measured on this GPU; each spec that has one cites the measurement. Absent:
  // unmeasured_dram_stream_share (gpu_spec.cpp) for its memory technology.
  std::optional<double> dram_stream_share;
  double l2_cache_mib = 0;
  // L1 data cache per SM that a kernel using a few KB of shared memory gets: on Ampere and later the
  // L1 + shared capacity less the smallest shared-memory carve-out that holds them; on Volta and
  // Turing less the largest (NeuSight's layer-norm rows on the V100 and T4 miss beyond 32 KB, each
  // spec cites them).
  double l1_cache_kib = 0;
  double tdp_w = 0;
  // From nvidia-smi where a sourced reading exists (absent otherwise; each spec says which it has):
  std::optional<SupportedClocks> supported_clocks;
  std::optional<double> power_limit_min_w, power_limit_max_w;  // the range nvidia-smi -pl accepts
  std::optional<double> idle_w;  // drawn with no work running (the spec's comment gives the state)

  // What a streaming kernel reaches, bytes/s: the datasheet bandwidth times the measured stream
  // share, or the share measured GPUs of its memory technology reach.
  double stream_bandwidth_bytes_per_s() const;
  // The SM clocks a locked or power-limited GPU can run at, highest first: the driver's table
  // where the spec has it, else boost down to a quarter of it in the architecture's step
  // (gpu_power.h says which).
  std::vector<double> clock_table_mhz() const;
  // The power limits nvidia-smi -pl accepts: the spec's range, or [TDP / 2, TDP] without one.
  double min_power_limit_w() const;
  double max_power_limit_w() const;
  SmLimits sm;
  int fp32_lanes_shared_with_int32 = 0;  // GA10x / Ada: FP32 lanes that also execute INT32
  // Measurements of this architecture that the fitted calibration cannot carry over (absent
  // elsewhere): the share of the calibrated SIMT GEMM rate its cuBLAS SGEMM reaches; the energy of
  // a CUDA-core FP32 FLOP over a tensor-core FP16 FLOP (GpuPowerFit); and the energy of a
  // tensor-core FLOP over what the TDP anchor gives it (1: the densest math at full rate draws the
  // TDP at the base clock; more where a measured tensor-core GEMM holds a lower clock at the TDP).
  // Each spec that sets them cites the measurement.
  std::optional<double> simt_gemm_efficiency;
  // The share of a SIMT GEMM block's C-tile store that no other work hides: the block stores its
  // tile after its main loop and the SM's next block does not start its loop meanwhile (0 where
  // absent: the store overlaps the other blocks' loops).
  std::optional<double> simt_gemm_exposed_store_share;
  std::optional<double> simt_tensor_energy_ratio;
  double tensor_energy_scale = 1;
  // Where a measurement of it is published (absent elsewhere: no GEMM waits on translations).
  std::optional<L1Tlb> l1_tlb;
  // From its memory devices' datasheet (absent elsewhere: no GEMM waits on opening DRAM rows).
  std::optional<DramActivationWindow> dram_activation;
  // FLOPs (2 per FMA; int ops for int8) per SM per clock, by compute type.
  std::map<std::string, double> cuda_core_flops_per_clock;    // fp64, fp32, fp16, bf16, int8
  std::map<std::string, double> tensor_core_flops_per_clock;  // fp64, tf32, fp16, bf16, fp8, int8
  // Dense datasheet peaks in TFLOPS (TOPS for int8), as published (at the clock NVIDIA quotes).
  std::map<std::string, double> cuda_core_tflops;
  std::map<std::string, double> tensor_core_tflops;

  std::optional<double> cuda_core_peak(std::string_view type) const;
  std::optional<double> tensor_core_peak(std::string_view type) const;
  // Per-SM-per-clock throughput of `type` on tensor cores (if `matrix` and supported) or CUDA cores.
  std::optional<double> flops_per_clock_per_sm(std::string_view type, bool matrix) const;
};

// Stacked HBM (hbm2 ... hbm3e), as against GDDR.
inline bool is_hbm(DramType type) {
  return type == DramType::hbm2 || type == DramType::hbm2e || type == DramType::hbm3 || type == DramType::hbm3e;
}

// The stream share of a GPU with no measurement: the median of the catalog's measured shares for
// its memory technology (HBM, or GDDR), in gpu_spec.cpp with the values it is the median of.
double unmeasured_dram_stream_share(DramType type);

// Reads and validates a spec; ConfigErrors name the spec file's line and key.
GpuSpec read_gpu_spec(const ConfigNode& root);

class HardwareCatalog;
// Every GPU spec the catalog lists, read and validated, in catalog order.
std::vector<GpuSpec> read_catalog_gpu_specs(const HardwareCatalog& catalog);

// The spec whose device_names contain `device` (the name the driver reports), or nullptr.
const GpuSpec* find_spec_by_device_name(const std::vector<GpuSpec>& specs, std::string_view device);

}  // namespace dse
