// The keys each calibration backend declares (KeySpec, `dse list calibration_backend`, the table of
// docs/calibration.md) are exactly the keys it reads from the backend block, and a declared default
// given explicitly measures the same as leaving the key out.
#include <gtest/gtest.h>

#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "hwcal/measure/backend.h"
#include "hwcal/measure/suite.h"
#include "sim/config/config_loader.h"
#include "tests/declared_keys.h"
#include "tests/sim/catalog_gpu.h"

namespace dse {
namespace {

// Twelve small vector kernels, among them the examples' planted failure and hang.
std::vector<Candidate> small_kernels() {
  return read_kernel_suite(
      load_config_text("{dtypes: [fp16], gemm_sizes: [], models: [], vector_ops: [add, softmax], "
                       "vector_rows: [8, 16, 24], vector_cols: [64, 256], launch: false, pairs: 0}",
                       "kernels.yaml"),
      "t");
}

// The device it reports; on the simulated backend also two chunks measured (all twelve kernels at
// once, then one alone) and the board samples.
std::string measured(const std::string& name, const ConfigNode& block) {
  auto backend = MeasurementBackendRegistry::instance().find(name)->factory(block, test::catalog_gpu("h100_sxm"));
  const DeviceInfo device = backend->device();
  std::string seen = device.name + "|" + device.driver + "|" + device.cuda;
  if (name != "simulated") return seen;  // the cuda backend's power and timings are the machine's
  const std::vector<Candidate> kernels = small_kernels();
  std::vector<const Candidate*> at_once, alone = {&kernels.back()};
  for (const Candidate& c : kernels) at_once.push_back(&c);
  MeasureSettings settings;
  settings.timeout_s = 1;
  for (const auto* chunk : {&at_once, &alone}) {
    const ChunkResult result = backend->measure(*chunk, settings);
    seen += " chunk " + std::to_string(result.wall_s);
    for (const Measurement& m : result.measurements)
      seen += " " + kMeasureStatusNames.name(m.status) + ":" + std::to_string(m.latency_ms) + ":" +
              std::to_string(m.power_w.value_or(-1));
  }
  const auto samples = backend->samples();
  seen += " samples " + std::to_string(samples.size());
  for (const PowerSample& s : samples) seen += " " + std::to_string(s.power_w) + "@" + std::to_string(s.clock_mhz);
  return seen + " idle " + std::to_string(backend->idle_power_w().value_or(-1));
}

}  // namespace

TEST(DeclaredKeys, CalibrationBackendsReadExactlyTheKeysTheyDeclare) {
  // The cuda backend runs the stand-in worker (tests/hwcal/data/fake_cuda_worker.sh: an H100), given
  // or by default ($DSE_CUDA_WORKER), and leaves the clocks alone: locking them needs NVML and root.
  const std::string worker = std::string(DSE_SOURCE_DIR) + "/tests/hwcal/data/fake_cuda_worker.sh";
  const char* before = std::getenv("DSE_CUDA_WORKER");
  const std::optional<std::string> saved = before ? std::optional<std::string>(before) : std::nullopt;
  ::setenv("DSE_CUDA_WORKER", worker.c_str(), 1);
  test::KeyCheckOptions options;
  options.example_override = [&worker](const KeySpec& key) {
    return key.name == "worker" ? worker : key.name == "allow_clock_control" ? std::string("false") : std::string();
  };
  test::check_declared_keys<MeasurementBackend>(measured, options);
  if (saved)
    ::setenv("DSE_CUDA_WORKER", saved->c_str(), 1);
  else
    ::unsetenv("DSE_CUDA_WORKER");
}

// docs/calibration.md's table is `dse list calibration_backend --json` as scripts/update_key_tables.sh
// writes it.
TEST(DeclaredKeys, TheCalibrationBackendDocsTableIsTheDeclarations) {
  test::check_key_table<MeasurementBackend>("docs/calibration.md");
}

}  // namespace dse
