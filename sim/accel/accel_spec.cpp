#include "sim/accel/accel_spec.h"

#include <cmath>

#include "sim/accel/accel_power_area.h"

#include "sim/config/config_node.h"

namespace dse {

AcceleratorSpec read_accelerator_spec(const ConfigNode& root) {
  root.expect_map(
      "an accelerator spec: name, process_nm, clock_mhz, dtype, cores, array, vector_lanes, l1_kib, "
      "global_buffer_kib, dram, noc_bandwidth_gbps");
  AcceleratorSpec spec;
  spec.name = root.param<std::string>("name").required();
  spec.display_name = root.param<std::string>("display_name").with_default(spec.name);
  // The area and power figures (sim/accel/accel_technology.cpp) are calibrated at one node only.
  spec.process_nm = root.param<int>("process_nm").in_range(16, 16).required();
  // Up to the fastest point of the 16 nm voltage/frequency curve (accel_power_area.h).
  spec.clock_mhz = root.param<double>("clock_mhz").in_range(10, std::floor(accelerator_max_clock_mhz())).required();
  const std::string dtype =
      root.param<std::string>("dtype").one_of({"int8", "bf16", "fp16", "fp32"}, "a native dtype").required();
  spec.dtype = *parse_dtype(dtype);

  const ConfigNode& cores = root.at("cores", "the core grid {x, y}");
  cores.expect_map("the core grid: x, y");
  spec.cores_x = cores.param<int>("x").in_range(1, 256).required();
  spec.cores_y = cores.param<int>("y").in_range(1, 256).required();

  const ConfigNode& array = root.at("array", "the systolic array of each core {rows, cols, dataflow}");
  array.expect_map("the systolic array: rows, cols, dataflow");
  spec.array.rows = array.param<std::int64_t>("rows").in_range(1, 4096).required();
  spec.array.cols = array.param<std::int64_t>("cols").in_range(1, 4096).required();
  spec.array.dataflow = read_enum(array, "dataflow", kDataflowNames, "a dataflow");

  spec.vector_lanes = root.param<std::int64_t>("vector_lanes").in_range(1, 1 << 20).required();
  spec.l1_bytes = root.param<std::int64_t>("l1_kib").in_range(1, std::int64_t{1} << 24).required() * 1024;
  spec.global_buffer_bytes =
      root.param<std::int64_t>("global_buffer_kib").in_range(0, std::int64_t{1} << 24).with_default(0) * 1024;

  const ConfigNode& dram =
      root.at("dram", "off-chip memory {bandwidth_gbps, capacity_gib, energy_pj_per_bit, access_bytes}");
  dram.expect_map("off-chip memory: bandwidth_gbps, capacity_gib, energy_pj_per_bit, access_bytes");
  spec.dram_bandwidth_gbps = dram.param<double>("bandwidth_gbps").in_range(0.1, 1e6).required();
  spec.dram_capacity_gib = dram.param<double>("capacity_gib").in_range(0.001, 1e6).required();
  spec.dram_energy_pj_per_bit = dram.param<double>("energy_pj_per_bit").in_range(0.01, 1000).required();
  // 32 B: an HBM2 pseudo-channel access (64 bits x burst length 4, JEDEC JESD235A) and an LPDDR4
  // channel access (16 bits x burst length 16, JESD209-4).
  spec.dram_access_bytes = dram.param<std::int64_t>("access_bytes").in_range(1, 1 << 16).with_default(32);

  const auto noc = root.param<double>("noc_bandwidth_gbps").in_range(0.1, 1e7).optional();
  if (spec.global_buffer_bytes > 0 && !noc)
    root.find("global_buffer_kib")
        ->fail(
            "expected noc_bandwidth_gbps (the global buffer <-> cores bandwidth) beside a global buffer, found none");
  spec.noc_bandwidth_gbps = noc.value_or(0);
  root.check_unknown_keys();
  return spec;
}

}  // namespace dse
