#include <gtest/gtest.h>

#include <filesystem>

#include "sim/config/config_loader.h"
#include "sim/config/overrides.h"
#include "sim/gpu/kernel_calibration_io.h"
#include "sim/output/atomic_file.h"
#include "sim/run/simulation.h"

namespace dse {

TEST(KernelCalibration, RoundTripsThroughItsFile) {
  KernelCalibration fitted;
  fitted.gemm_efficiency = 0.75;
  fitted.launch_overhead_us = 7.5;
  fitted.timing_floor_us = 12.25;
  const std::string text = kernel_calibration_yaml(fitted, {"t4", "l4"}, "a test");
  const KernelCalibration back = read_kernel_calibration(load_config_text(text, "cal.yaml"));
  EXPECT_DOUBLE_EQ(back.gemm_efficiency, 0.75);
  EXPECT_DOUBLE_EQ(back.launch_overhead_us, 7.5);
  EXPECT_DOUBLE_EQ(back.timing_floor_us, 12.25);
  EXPECT_DOUBLE_EQ(back.stream_efficiency, KernelCalibration{}.stream_efficiency);
  EXPECT_THROW(read_kernel_calibration(
                   load_config_text("calibration: kernel_timer\nparameters: {gemm_eficiency: 0.5}\n", "c.yaml")),
               ConfigError);
}

// A file from before the specs carried measured stream shares names memory_efficiency, a share of the
// datasheet bandwidth; read as stream_efficiency it would be 12-30 % off, so it is refused by name.
TEST(KernelCalibration, TheDatasheetShareKeyIsRefusedByName) {
  try {
    read_kernel_calibration(load_config_text(
        "calibration: kernel_timer\nparameters:\n  gemm_efficiency: 0.9\n  memory_efficiency: 0.73\n", "old.yaml"));
    FAIL() << "memory_efficiency was accepted";
  } catch (const ConfigError& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find("old.yaml:4"), std::string::npos) << message;
    EXPECT_NE(message.find("replaced by stream_efficiency"), std::string::npos) << message;
  }
}

TEST(KernelCalibration, AnExperimentLoadsItAndSaysSo) {
  const auto path = std::filesystem::temp_directory_path() / "dse_test_calibration.yaml";
  KernelCalibration slow;
  slow.gemm_efficiency = 0.2;  // a quarter of the default: GEMM-bound work takes longer
  write_file_atomically(path.string(), kernel_calibration_yaml(slow, {"t4"}, "a test"));
  const std::string file = "embedded:configs/experiments/quickstart.yaml";
  const auto run = [&](bool calibrated) {
    ConfigNode config = load_config_file(file);
    std::vector<std::string> overrides{"device.gpu=t4", "device.timing_model=kernel", "output="};
    if (calibrated) overrides.push_back("device.calibration=" + path.string());
    apply_overrides(config, overrides);
    return run_experiment(read_experiment(config, file));
  };
  const RunResult calibrated = run(true), defaults = run(false);
  EXPECT_EQ(calibrated.calibration, "calibrated (" + path.string() + ")");
  EXPECT_GT(calibrated.makespan_ps, defaults.makespan_ps);
  std::filesystem::remove(path);
}

// A calibration is refused where it would be silently wrong: on a model that ignores it, or fitted
// on one GPU and applied to another.
TEST(KernelCalibration, RefusedWhereItCannotApply) {
  const auto path = std::filesystem::temp_directory_path() / "dse_test_calibration_t4.yaml";
  write_file_atomically(path.string(), kernel_calibration_yaml(KernelCalibration{}, {"t4"}, "a test"));
  const std::string file = "embedded:configs/experiments/quickstart.yaml";
  const auto message = [&](const std::vector<std::string>& overrides) -> std::string {
    ConfigNode config = load_config_file(file);
    apply_overrides(config, overrides);
    try {
      read_experiment(config, file);
    } catch (const ConfigError& error) {
      return error.what();
    }
    return "";
  };
  const std::string cal = "device.calibration=" + path.string();
  EXPECT_EQ(message({"device.gpu=t4", "device.timing_model=kernel", cal}), "");
  const std::string roofline = message({"device.gpu=t4", "device.timing_model=roofline", cal});
  EXPECT_NE(roofline.find("expected no calibration with timing_model roofline"), std::string::npos) << roofline;
  const std::string other = message({"device.gpu=l4", "device.timing_model=kernel", cal});
  EXPECT_NE(other.find("expected a calibration fitted on l4 or on several GPUs, found one fitted on t4 only"),
            std::string::npos)
      << other;
  // A fit to several GPUs (as the defaults are) carries over to another.
  write_file_atomically(path.string(),
                        kernel_calibration_yaml(KernelCalibration{}, {"t4", "v100_pcie_32gb"}, "a test"));
  EXPECT_EQ(message({"device.gpu=l4", "device.timing_model=kernel", cal}), "");
  std::filesystem::remove(path);
}

}  // namespace dse
