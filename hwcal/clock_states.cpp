#include "hwcal/clock_states.h"

#include <cmath>
#include <vector>

#include "hwcal/batch_scaling_floor.h"
#include "hwcal/measured_op.h"
#include "hwcal/prediction_errors.h"
#include "hwcal/row_prediction.h"

namespace dse {
namespace {

struct OpRows {
  std::vector<double> model, either, control;
  std::size_t nearer_boost = 0;
  std::map<PerItemShape, std::pair<std::size_t, std::size_t>> shapes;  // held rows, of them nearer boost
};

}  // namespace

ClockStateTable evaluate_clock_states(const std::map<std::string, DeviceRows>& devices,
                                      const KernelCalibration& calibration) {
  ClockStateTable table;
  for (const auto& [name, device] : devices) {
    const KernelTimer timer(device.spec, calibration);
    const double boost = device.spec.boost_clock_mhz;
    std::map<std::string, OpRows> ops;
    for (const auto& row : device.rows) {
      const auto kernels = predict_kernels(row, timer);
      bool held = false;
      double at_boost = 0, slower = 0, modelled = 0;  // the kernels' seconds in each state
      for (const auto& kernel : kernels) {
        const KernelTime t = timer.time(kernel);
        held = held || t.clock_mhz < boost - 0.5;
        modelled += t.seconds;
        at_boost += timer.time_at(kernel, boost).seconds;
        slower += timer.time_at(kernel, t.clock_mhz * t.clock_mhz / boost).seconds;
      }
      if (!held) continue;
      const double measured = row.latency_ms * 1e-3;
      const double harness_s = predict_latency_s(row, kernels, timer) - modelled;  // the floor a row timed alone pays
      const auto error = [&](double kernels_s) { return std::abs(harness_s + kernels_s - measured) / measured; };
      const double held_error = error(modelled), boost_error = error(at_boost);
      OpRows& op = ops[row.op];
      const bool fast = boost_error < held_error;
      op.model.push_back(held_error);
      op.either.push_back(std::min(held_error, boost_error));
      op.control.push_back(std::min(held_error, error(slower)));
      op.nearer_boost += fast;
      auto& [rows, nearer] = op.shapes[per_item_shape(row)];
      ++rows;
      nearer += fast;
    }
    for (const auto& [op, rows] : ops) {
      ClockStateSummary& s = table[name][op];
      s.held_rows = rows.model.size();
      s.nearer_boost = rows.nearer_boost;
      s.model_mape_pct = summarize_errors(rows.model).mape_pct;
      s.either_state_mape_pct = summarize_errors(rows.either).mape_pct;
      s.control_mape_pct = summarize_errors(rows.control).mape_pct;
      for (const auto& [shape, counts] : rows.shapes) {
        if (counts.first < FloorOptions{}.min_group_rows) continue;  // as the floors group shapes
        ++s.shapes;
        s.shapes_in_both += counts.second > 0 && counts.second < counts.first;
      }
    }
  }
  return table;
}

}  // namespace dse
