// Every shipped GPU spec loads, and its per-SM-per-clock throughputs reproduce its datasheet peaks:
// sm_count x boost clock x FLOPs per SM per clock. FP32 within 3 %; tensor cores within 10 %,
// because NVIDIA quotes Hopper's tensor peaks at a lower clock than the boost clock (H100 SXM:
// 989.5 TFLOPS = 132 SMs x 4096 x 1.83 GHz, boost 1.98 GHz).
#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "models/base/csv_table.h"
#include "models/base/median.h"
#include "sim/config/config_loader.h"
#include "sim/config/hardware_catalog.h"
#include "sim/gpu/gpu_spec.h"
#include "sim/gpu/kernel.h"
#include "tests/sim/catalog_gpu.h"

namespace dse {

TEST(GpuSpecs, EveryShippedSpecLoadsAndMatchesItsDatasheetPeaks) {
  const HardwareCatalog catalog = HardwareCatalog::for_experiment("");
  const auto names = catalog.names("gpu");
  EXPECT_GE(names.size(), 15u);
  for (const auto& name : names) {
    const GpuSpec spec = read_gpu_spec(load_config_file(*catalog.find("gpu", name)));
    EXPECT_EQ(spec.name, name);
    EXPECT_FALSE(spec.device_names.empty()) << name;
    const double clock_hz = spec.boost_clock_mhz * 1e6;
    for (const auto& [type, peak] : spec.cuda_core_tflops) {
      const double derived = spec.sm_count * clock_hz * spec.cuda_core_flops_per_clock.at(type) / 1e12;
      EXPECT_NEAR(derived, peak, 0.03 * peak) << name << " cuda " << type;
    }
    for (const auto& [type, peak] : spec.tensor_core_tflops) {
      const double derived = spec.sm_count * clock_hz * spec.tensor_core_flops_per_clock.at(type) / 1e12;
      EXPECT_NEAR(derived, peak, 0.10 * peak) << name << " tensor " << type;
    }
  }
}

TEST(GpuSpecs, NeuSightDevicesAllHaveSpecs) {
  const HardwareCatalog catalog = HardwareCatalog::for_experiment("");
  std::vector<std::string> device_names;
  for (const auto& name : catalog.names("gpu")) {
    const GpuSpec spec = read_gpu_spec(load_config_file(*catalog.find("gpu", name)));
    device_names.insert(device_names.end(), spec.device_names.begin(), spec.device_names.end());
  }
  for (const char* device :
       {"Tesla P4", "Tesla P100-PCIE-16GB", "Tesla T4", "Tesla V100-PCIE-32GB", "NVIDIA A100-PCIE-40GB", "NVIDIA L4",
        "NVIDIA A100 80GB PCIe", "NVIDIA A100-SXM4-40GB", "NVIDIA H100 80GB HBM3"})
    EXPECT_NE(std::find(device_names.begin(), device_names.end(), device), device_names.end()) << device;
}

// The T4's driver readings: 87 clocks from 1,590 down to 300 MHz in 15 MHz steps (the
// nvidia-smi list the spec cites), a 60-70 W power-limit range, and the idle draw.
TEST(GpuSpecs, DriverReadingsWhereSourced) {
  const HardwareCatalog catalog = HardwareCatalog::for_experiment("");
  const GpuSpec t4 = read_gpu_spec(load_config_file(*catalog.find("gpu", "t4")));
  ASSERT_TRUE(t4.supported_clocks);
  const std::vector<double> clocks = t4.supported_clocks->list_mhz();
  EXPECT_EQ(clocks.size(), 87u);
  EXPECT_DOUBLE_EQ(clocks.front(), 1590);
  EXPECT_DOUBLE_EQ(clocks[1], 1575);
  EXPECT_DOUBLE_EQ(clocks.back(), 300);
  EXPECT_NE(std::find(clocks.begin(), clocks.end(), t4.base_clock_mhz), clocks.end());
  EXPECT_EQ(t4.power_limit_min_w, 60);
  EXPECT_EQ(t4.power_limit_max_w, 70);
  EXPECT_NEAR(*t4.idle_w, 26.8, 1e-9);
  // A step that does not divide the range still ends at the minimum.
  EXPECT_EQ((SupportedClocks{544, 1328, 12.65, {}}.list_mhz().size()), 63u);
  EXPECT_DOUBLE_EQ((SupportedClocks{544, 1328, 12.65, {}}.list_mhz().back()), 544);
  // Every spec that has them keeps base and boost inside the list and the TDP inside the limits.
  for (const auto& name : catalog.names("gpu")) {
    const GpuSpec spec = read_gpu_spec(load_config_file(*catalog.find("gpu", name)));
    if (spec.supported_clocks) {
      EXPECT_LE(spec.supported_clocks->min_mhz, spec.base_clock_mhz) << name;
    }
    if (spec.power_limit_min_w) {
      EXPECT_LE(*spec.power_limit_min_w, spec.tdp_w) << name;
    }
    if (spec.idle_w) {
      EXPECT_LT(*spec.idle_w, spec.tdp_w) << name;
    }
    // The L1 a row kernel gets: the programming guide's 24 KB (6.0) or 48 KB (6.1) on Pascal; on
    // Volta and later at most the L1 + shared capacity (128 KB on 7.0, 96 on 7.5, 192 on 8.0, 256 on 9.0).
    EXPECT_GE(spec.l1_cache_kib, 24) << name;
    EXPECT_LE(spec.l1_cache_kib, 256) << name;
    // Four warp schedulers per SM on every architecture here but GP100 (compute capability 6.0).
    EXPECT_EQ(spec.sm.warp_schedulers, spec.compute_capability == 6.0 ? 2 : 4) << name;
  }
  EXPECT_EQ(test::catalog_gpu("p100_pcie").l1_cache_kib, 24);
  EXPECT_EQ(test::catalog_gpu("p4").l1_cache_kib, 48);
}

// The specs' driver tables are the lists nvidia-smi printed on those GPUs
// (tests/data/public/driver_clock_tables.csv, sources in its README): entry for entry at the
// highest memory clock, the P100's irregular 12 and 13 MHz steps and the V100's 7.5 MHz steps
// rounded down (1380, 1372, 1365, ...) included.
TEST(GpuSpecs, ClockTablesAreTheDriversLists) {
  const CsvTable table = CsvTable::read(std::string(DSE_REFERENCE_DIR) + "/public/driver_clock_tables.csv");
  const std::size_t gpu = table.column("gpu"), memory = table.column("memory_mhz"),
                    graphics = table.column("graphics_mhz");
  std::map<std::string, std::map<double, std::vector<double>>> lists;  // gpu -> memory clock -> graphics clocks
  for (const auto& row : table.rows())
    lists[table.text(row, gpu)][table.number(row, memory)].push_back(table.number(row, graphics));
  ASSERT_EQ(lists.size(), 7u);
  for (const auto& [name, by_memory] : lists) {
    const GpuSpec spec = test::catalog_gpu(name);
    ASSERT_TRUE(spec.supported_clocks) << name;
    const std::vector<double> listed = by_memory.rbegin()->second;  // at the highest memory clock
    const std::vector<double> modelled = spec.supported_clocks->list_mhz();
    EXPECT_EQ(modelled, listed) << name;
  }
  // The P100's own list: a locked clock must be one of its entries, not of a 12.65 MHz grid.
  const std::vector<double> p100 = test::catalog_gpu("p100_pcie").clock_table_mhz();
  EXPECT_EQ(p100.front(), 1303);  // entries above boost (1,328, 1,316) are never granted
  EXPECT_NE(std::find(p100.begin(), p100.end(), 1278), p100.end());
  EXPECT_EQ(std::find(p100.begin(), p100.end(), 1277), p100.end());
  // How an error names a table: its list, or its step (and the driver's rounding where it applies).
  EXPECT_EQ(test::catalog_gpu("p100_pcie").supported_clocks->describe(), "63 clocks from 1328 down to 544 MHz");
  EXPECT_EQ(test::catalog_gpu("v100_pcie").supported_clocks->describe(),
            "135 to 1380 MHz in steps of 7.5 MHz, each rounded down to whole MHz");
  EXPECT_EQ(test::catalog_gpu("t4").supported_clocks->describe(), "300 to 1590 MHz in steps of 15 MHz");
}

// Each spec's measured stream share that cites NeuSight's elementwise rows is what those rows
// give: the median over the GPU's rows of at least 1 ms (where the harness's ~25 us is under 3 %)
// of the bytes an op moves (two inputs and an output for add, mul, div, pow; one input and an
// output for the others) over its time, as a share of the datasheet bandwidth.
TEST(GpuSpecs, StreamSharesAreWhatNeuSightsElementwiseRowsGive) {
  const std::map<std::string, int> arrays = {{"add", 3},  {"mul", 3},  {"div", 3},  {"pow", 3},
                                             {"addu", 2}, {"mulu", 2}, {"divu", 2}, {"powu", 2},
                                             {"relu", 2}, {"gelu", 2}, {"tanh", 2}};
  const CsvTable table = CsvTable::read(std::string(DSE_REFERENCE_DIR) + "/neusight/elem.csv");
  const auto op = table.column("OPName"), latency = table.column("Latency"), device = table.column("Device"),
             b = table.column("B"), h = table.column("H");
  std::map<std::string, std::vector<double>> bytes_per_s;
  for (const auto& row : table.rows()) {
    const double ms = table.number(row, latency);
    if (ms < 1) continue;
    bytes_per_s[table.text(row, device)].push_back(arrays.at(table.text(row, op)) * 4.0 * table.number(row, b) *
                                                   table.number(row, h) / (ms * 1e-3));
  }
  const std::vector<GpuSpec> specs = read_catalog_gpu_specs(HardwareCatalog::for_experiment(""));
  EXPECT_EQ(bytes_per_s.size(), 7u);
  for (const auto& [device, rates] : bytes_per_s) {
    const GpuSpec* spec = find_spec_by_device_name(specs, device);
    ASSERT_NE(spec, nullptr) << device;
    ASSERT_TRUE(spec->dram_stream_share.has_value()) << spec->name;
    EXPECT_NEAR(*spec->dram_stream_share, median(rates) / (spec->dram_bandwidth_gbps * 1e9), 0.001) << spec->name;
  }
}

// The Volta and Turing specs' L1 is what NeuSight's training layer-norm rows show (other shapes
// than the test rows dse is validated on; no fit reads them): PyTorch's vectorized layer norm runs
// one 128-thread block per row and reads its row twice, so with the rows of the resident blocks in
// the L1 it moves 8 bytes per float (one read, one write) at the stream bandwidth, and with none
// of them 12 (2/3 of that rate). Rows whose resident set fits the spec's L1 stream at >= 0.85 of
// it (median over rows of >= 0.3 ms, where the harness's floor is under a tenth), rows whose set
// is twice it or more at <= 0.70. An L1 of 120 KB (the smallest carve-out) fails it on the V100,
// 64 KB on the T4.
TEST(GpuSpecs, VoltaAndTuringL1IsWhatNeuSightsLayerNormRowsShow) {
  const CsvTable table = CsvTable::read(std::string(DSE_REFERENCE_DIR) + "/neusight/train_ln.csv");
  const auto latency = table.column("Latency"), device = table.column("Device"), b = table.column("B"),
             h = table.column("H");
  const std::vector<GpuSpec> specs = read_catalog_gpu_specs(HardwareCatalog::for_experiment(""));
  int checked = 0;
  for (const char* name : {"Tesla V100-PCIE-32GB", "Tesla T4"}) {
    const GpuSpec* spec = find_spec_by_device_name(specs, name);
    ASSERT_NE(spec, nullptr) << name;
    Kernel layer_norm;  // as sim/gpu/gpu_lowering.cpp lowers it: 128 threads, 32 registers, one row per block
    layer_norm.threads_per_block = 128;
    layer_norm.registers_per_thread = 32;
    const int resident = occupancy(layer_norm, spec->sm).blocks_per_sm;
    std::vector<double> fitting, missing;
    for (const auto& row : table.rows()) {
      const double ms = table.number(row, latency);
      if (table.text(row, device) != name || ms < 0.3) continue;
      const double floats = table.number(row, h);
      const double share = 8 * table.number(row, b) * floats / (ms * 1e-3) / spec->stream_bandwidth_bytes_per_s();
      const double resident_kib = resident * floats * 4 / 1024;
      if (resident_kib <= spec->l1_cache_kib) fitting.push_back(share);
      if (resident_kib >= 2 * spec->l1_cache_kib) missing.push_back(share);
    }
    ASSERT_GE(missing.size(), 50u) << name;
    EXPECT_LE(median(missing), 0.70) << name;
    if (!fitting.empty()) {
      EXPECT_GE(median(fitting), 0.85) << name;
    }
    checked += fitting.empty() ? 0 : 1;
  }
  EXPECT_EQ(checked, 1);  // the T4 has rows short enough to fit; the V100's all miss
}

// A spec without a measured stream share gets the median of the measured ones of its memory
// technology (HBM or GDDR), as gpu_spec.cpp says.
TEST(GpuSpecs, UnmeasuredStreamShareIsTheMedianOfTheMeasuredOnes) {
  std::vector<double> hbm, gddr;
  for (const GpuSpec& spec : read_catalog_gpu_specs(HardwareCatalog::for_experiment("")))
    if (spec.dram_stream_share) (is_hbm(spec.memory_type) ? hbm : gddr).push_back(*spec.dram_stream_share);
  ASSERT_GE(hbm.size(), 3u);
  ASSERT_GE(gddr.size(), 3u);
  EXPECT_NEAR(unmeasured_dram_stream_share(DramType::hbm3), median(hbm), 0.0005);
  EXPECT_NEAR(unmeasured_dram_stream_share(DramType::gddr6), median(gddr), 0.0005);
  const GpuSpec unmeasured = test::catalog_gpu("h100_sxm");
  ASSERT_FALSE(unmeasured.dram_stream_share.has_value());
  EXPECT_DOUBLE_EQ(unmeasured.stream_bandwidth_bytes_per_s(),
                   unmeasured.dram_bandwidth_gbps * 1e9 * unmeasured_dram_stream_share(DramType::hbm3));
}

}  // namespace dse
