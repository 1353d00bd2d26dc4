#include "hwcal/kernel_validation.h"

#include <utility>

namespace dse {

ModelClocks model_clocks(const GpuSpec& spec, const KernelCalibration& calibration) {
  const KernelTimer timer(spec, calibration);
  ModelClocks clocks{spec.base_clock_mhz, spec.boost_clock_mhz, timer.sustained_clock_mhz(), std::nullopt};
  if (spec.tensor_core_flops_per_clock.contains("fp16")) clocks.fp16_tensor_mhz = timer.gemm_clock_mhz("fp16");
  return clocks;
}

KernelValidationReport validate_kernel_rows(const std::map<std::string, DeviceRows>& devices,
                                            const KernelValidationOptions& options, const FitProgress& progress) {
  KernelValidationReport report;
  report.calibration = options.calibration;
  // One GPU's rows alone say little about some parameters: they are fitted with a prior at the
  // defaults (every GPU's fit) on 80 % of the rows, and the other 20 % report the held-out error.
  if (options.fit && devices.size() == 1) {
    report.one_gpu = fit_one_gpu(devices.begin()->second, default_fit_parameters(), SessionFitOptions{});
    report.calibration = report.one_gpu->calibration;
  } else if (options.fit) {
    report.calibration = fit_calibration(devices, report.calibration);
  }
  const KernelCalibration& calibration = report.calibration;
  report.errors = evaluate(devices, calibration);
  for (const auto& [name, device] : devices) report.clocks[name] = model_clocks(device.spec, calibration);

  // The measurements' own scatter, and dse's error on the same rows.
  report.batch_scaling.rows = FloorOptions{};  // defaults: rows of 1 ms or more
  report.batch_scaling.grouped = batch_scaling_rows(devices, report.batch_scaling.rows);
  report.batch_scaling.floor = batch_scaling_floor(report.batch_scaling.grouped);
  report.affine.rows = FloorOptions{.min_latency_ms = 0};
  report.affine.grouped = batch_scaling_rows(devices, report.affine.rows);
  report.affine.floor = affine_floor(report.affine.grouped);
  for (FloorComparison* floor : {&report.batch_scaling, &report.affine})
    floor->model = evaluate(floor->grouped, calibration);

  report.clock_states = evaluate_clock_states(devices, calibration);
  if (options.leave_one_out) {
    report.held_out_fits = leave_one_out_fits(devices, progress);
    for (const auto& [name, device] : devices) {
      const KernelCalibration& fitted = report.held_out_fits.at(name);
      report.held_out_clocks[name] = model_clocks(device.spec, fitted);
      report.held_out[name] = evaluate({{name, device}}, fitted).at(name);
      for (FloorComparison* floor : {&report.batch_scaling, &report.affine})
        if (floor->grouped.contains(name))
          floor->held_out[name] = evaluate({{name, floor->grouped.at(name)}}, fitted).at(name);
      for (auto& [device_name, ops] : evaluate_clock_states({{name, device}}, fitted))
        report.held_out_clock_states[device_name] = std::move(ops);
    }
  }
  report.tile_choice = evaluate_tile_choice(devices, calibration);
  return report;
}

}  // namespace dse
