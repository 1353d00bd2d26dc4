// A FAST-style TPU-like accelerator template (configs/hardware/accel/*.yaml).
//
// A grid of cores_x x cores_y cores; each core has one systolic array (rows x cols, a dataflow), a
// vector unit of `vector_lanes` elementwise ALUs and a private L1 scratchpad; an optional global
// buffer shared by all cores over an on-chip network; off-chip DRAM. One clock for everything.
// docs/accelerator.md gives the equations that turn this into time, area and power.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "models/tensor.h"
#include "sim/accel/systolic_array.h"

namespace dse {

class ConfigNode;

struct AcceleratorSpec {
  std::string name;
  std::string display_name;
  int process_nm = 16;
  double clock_mhz = 0;
  DType dtype = DType::bf16;  // the arrays' native multiply type
  int cores_x = 1, cores_y = 1;
  SystolicArray array;                   // per core
  std::int64_t vector_lanes = 0;         // per core: elementwise operations per cycle
  std::int64_t l1_bytes = 0;             // per core
  std::int64_t global_buffer_bytes = 0;  // shared by all cores; 0 = none
  double dram_bandwidth_gbps = 0;        // GB/s (10^9 bytes per second)
  double dram_capacity_gib = 0;
  double dram_energy_pj_per_bit = 0;    // off-chip access energy of the memory technology
  std::int64_t dram_access_bytes = 32;  // the aligned unit DRAM moves (sim/accel/tensor_layout.h)
  double noc_bandwidth_gbps = 0;        // global buffer <-> cores, all cores together

  int cores() const { return cores_x * cores_y; }
  double clock_hz() const { return clock_mhz * 1e6; }
  double dram_bytes_per_s() const { return dram_bandwidth_gbps * 1e9; }
  double noc_bytes_per_s() const { return noc_bandwidth_gbps * 1e9; }
  // Peak multiply-accumulates per second of all arrays.
  double peak_macs_per_s() const {
    return static_cast<double>(cores()) * static_cast<double>(array.rows * array.cols) * clock_hz();
  }
};

// Reads and validates a spec; errors name the file, line, column and key.
AcceleratorSpec read_accelerator_spec(const ConfigNode& root);

}  // namespace dse
