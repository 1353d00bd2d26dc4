#include "cli/kernel_validation_h5.h"

#include <fmt/format.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>

#include "sim/output/hdf5_file.h"

namespace dse {

void write_kernel_validation_h5(Hdf5File& out, const std::map<std::string, DeviceRows>& devices,
                                const KernelValidationRun& run) {
  std::vector<std::string> gpu, op, file;
  std::vector<std::int64_t> line, b, m, n, k;
  std::vector<double> measured_ms, predicted_ms, held_out_ms;
  for (const auto& [name, device] : devices) {
    const KernelTimer timer(device.spec, run.calibration);
    const auto held_out = run.held_out_fits.find(name);
    const std::optional<KernelTimer> held_out_timer =
        held_out == run.held_out_fits.end() ? std::nullopt
                                            : std::optional<KernelTimer>(std::in_place, device.spec, held_out->second);
    for (const auto& row : device.rows) {
      gpu.push_back(name);
      op.push_back(row.op);
      file.push_back(row.file);
      line.push_back(row.line);
      b.push_back(row.b);
      m.push_back(row.m);
      n.push_back(row.n);
      k.push_back(row.k);
      measured_ms.push_back(row.latency_ms);
      predicted_ms.push_back(predict_latency_s(row, timer) * 1e3);
      held_out_ms.push_back(held_out_timer ? predict_latency_s(row, *held_out_timer) * 1e3
                                           : std::numeric_limits<double>::quiet_NaN());
    }
  }
  // /config: the run as YAML, as every result file has its resolved config.
  std::string config = "# dse validate kernels\nvalidate: kernels\nfiles:\n";
  for (const auto& f : run.files) config += fmt::format("  - '{}'\n", f);
  config += fmt::format("fit: {}\nleave_one_out: {}\n", run.fit, run.leave_one_out);
  std::string sources;
  for (const auto& f : run.files) sources += (sources.empty() ? "" : ", ") + f;

  out.string("/config", config);
  write_meta(out, sources,
             run.fit ? "fitted to these rows (--fit)" : "default calibration (fitted to NeuSight FP32 kernels)", {},
             {});
  out.group("/validation");
  out.strings("/validation/gpu", gpu);
  out.strings("/validation/op", op);
  out.strings("/validation/file", file);
  out.integers("/validation/line", line);
  out.integers("/validation/b", b);
  out.integers("/validation/m", m);
  out.integers("/validation/n", n);
  out.integers("/validation/k", k);
  out.doubles("/validation/measured_ms", measured_ms);
  out.doubles("/validation/predicted_ms", predicted_ms);
  out.doubles("/validation/held_out_ms", held_out_ms);
  out.commit();
}

}  // namespace dse
