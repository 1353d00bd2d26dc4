// The keys each device kind and GPU timing model declares (KeySpec, `dse list device|gpu_timing`)
// are exactly the keys it reads from the device block, a GPU's block takes its own keys and its
// timing model's, a declared default given explicitly builds the same device as leaving the key
// out, and docs/config.md's table of device keys has a row for each declared key and no other.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>

#include "sim/config/config_loader.h"
#include "sim/device/device.h"
#include "sim/gpu/gpu_timing_model.h"
#include "sim/run/run_cache.h"
#include "tests/declared_keys.h"
#include "tests/sim/catalog_gpu.h"

namespace dse {
namespace {

namespace fs = std::filesystem;

// What the device built from `block` says of itself without a run.
std::string device_of(const std::string&, const ConfigNode& block) {
  RunCache cache;
  const auto device = read_device(block, "device.yaml", cache);
  std::string seen = device->kind() + "|" + device->name() + "|" + device->display_name() + "|" +
                     device->timing_model() + "|" + device->calibration();
  const MetricTable cheap = device->cheap_metrics();  // entries() refers into it
  for (const auto& entry : cheap.entries()) seen += " " + entry.name + "=" + std::to_string(entry.value);
  for (const auto& point : device->operating_points()) seen += " " + std::to_string(point.clock_mhz);
  for (const auto& file : device->hardware_files()) seen += " " + file.path;
  return seen;
}

// A kernel-model calibration file with one parameter, for the examples' `calibration`.
struct CalibrationFile {
  fs::path path = fs::temp_directory_path() / ("dse_device_keys_" + std::to_string(::getpid()) + ".yaml");
  CalibrationFile() { std::ofstream(path) << "calibration: kernel_timer\nparameters: {gemm_efficiency: 0.9}\n"; }
  ~CalibrationFile() { fs::remove(path); }
  std::string override_for(const KeySpec& key) const { return key.name == "calibration" ? path.string() : ""; }
};

std::set<std::string> names_of(const std::vector<KeySpec>& keys) {
  std::set<std::string> names;
  for (const KeySpec& key : keys) names.insert(key.name);
  return names;
}

}  // namespace

TEST(DeclaredKeys, DeviceKindsReadExactlyTheKeysTheyDeclare) {
  test::KeyCheckOptions options;
  options.head_key = "";  // a device block names its kind by that kind's key (gpu, accelerator)
  test::check_declared_keys<Device>(device_of, options);
}

TEST(DeclaredKeys, GpuTimingModelsReadExactlyTheKeysTheyDeclare) {
  const CalibrationFile calibration;
  test::KeyCheckOptions options;
  options.head_key = "timing_model";  // read by the GPU device, which makes the model
  options.example_override = [&calibration](const KeySpec& key) { return calibration.override_for(key); };
  const GpuSpec spec = test::catalog_gpu("h200");
  const std::string config_file = "device.yaml";
  test::check_declared_keys<GpuTimingModel>(
      [&spec, &config_file](const std::string& name, const ConfigNode& block) {
        std::vector<HardwareFile> files;
        const auto model = GpuTimingRegistry::instance().find(name)->factory(spec, {block, config_file, files});
        std::string seen = model->calibration() + " " + std::to_string(model->host_launch_s()) + " " +
                           std::to_string(model->dram_bandwidth_bytes_per_s());
        for (const auto& file : files) seen += " " + file.path;
        return seen;
      },
      options);
}

// A GPU's block takes the GPU's keys and its timing model's: with every one of both given, the
// device asked for exactly those.
TEST(DeclaredKeys, AGpuBlockTakesItsTimingModelsKeys) {
  const CalibrationFile calibration;
  const auto* gpu = DeviceRegistry::instance().find("gpu");
  ASSERT_NE(gpu, nullptr);
  for (const auto& model : GpuTimingRegistry::instance().infos()) {
    SCOPED_TRACE(model.name);
    std::string yaml = "{timing_model: " + model.name;
    for (const KeySpec& key : gpu->keys)
      if (key.name != "timing_model") yaml += ", " + key.name + ": " + key.example;
    for (const KeySpec& key : model.keys) {
      const std::string value = calibration.override_for(key);
      yaml += ", " + key.name + ": " + (value.empty() ? key.example : value);
    }
    const ConfigNode block = load_config_text(yaml + "}", "device.yaml");
    ASSERT_NO_THROW(device_of("gpu", block));
    std::set<std::string> expected = names_of(gpu->keys);
    for (const auto& name : names_of(model.keys)) expected.insert(name);
    const std::vector<std::string> asked = block.asked_keys();
    EXPECT_EQ(std::set<std::string>(asked.begin(), asked.end()), expected);
  }
}

// docs/config.md writes the device block's keys as rows `device.KEY` by hand (with more than a line
// to say about most): one for each key a device kind or timing model declares, and no other but
// `device.<spec key>` (an accelerator spec's keys).
TEST(DeclaredKeys, TheConfigDocsHasARowForEachDeviceKey) {
  std::ifstream in("docs/config.md");
  ASSERT_TRUE(in) << "run from the repository root";
  std::set<std::string> rows;
  const std::regex row(R"(^\| `device\.([^`]+)` \|)");
  std::smatch match;
  for (std::string line; std::getline(in, line);)
    if (std::regex_search(line, match, row) && match[1] != "<spec key>") rows.insert(match[1]);
  std::set<std::string> declared;
  for (const auto& info : DeviceRegistry::instance().infos())
    for (const auto& name : names_of(info.keys)) declared.insert(name);
  for (const auto& info : GpuTimingRegistry::instance().infos())
    for (const auto& name : names_of(info.keys)) declared.insert(name);
  EXPECT_EQ(rows, declared) << "docs/config.md's device table and the declarations disagree";
}

}  // namespace dse
