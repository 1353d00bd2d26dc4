// How much of a kernel model's error no shape-based model can remove: the measurements' own
// scatter. Rows that differ only in their batch (bmm, layer norm, softmax: B; linear: B x M rows)
// do the same work per item, so once they run many waves their time should be proportional to the
// batch. Each such group gets the one throughput (items per second) that predicts it best, and the
// MAPE left over is a floor under any model whose throughput depends on the per-item shape alone:
// it measures run-to-run noise and clock states the harness did not record (L4 and T4 rows of one
// shape alternate between two speeds 1.7x apart as their batch grows).
//
// A second floor covers every row, short ones included: each group gets the fixed cost and the
// per-item cost (latency = a + b x items, a and b >= 0) that predict it best. No model whose time
// for a shape is a fixed cost (launch, harness floor, a wave's tail) plus a cost per item does
// better on those rows, whatever its parameters.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <tuple>

#include "hwcal/prediction_errors.h"

namespace dse {

// The per-item shape a row shares with the same op at other batch sizes: bmm, layer norm and
// softmax rows by (M, N, K) with B items; linear rows by (N, K) with B x M rows as the items;
// convolutions by their layer.
using PerItemShape = std::tuple<std::string, std::int64_t, std::int64_t, std::int64_t, std::optional<ConvShape>>;
PerItemShape per_item_shape(const KernelMeasurement& row);

struct FloorOptions {
  double min_latency_ms = 1.0;  // shorter rows carry a visible share of the harness's timing floor (timing_floor_us)
  std::size_t min_group_rows = 3;
};

// The rows that fall in a batch group: at least min_latency_ms long, with at least min_group_rows
// rows of the same op and per-item shape on the same device.
std::map<std::string, DeviceRows> batch_scaling_rows(const std::map<std::string, DeviceRows>& devices,
                                                     const FloorOptions& options = {});

// Per device and op: the MAPE of the best constant throughput per group, over the rows of
// batch_scaling_rows (pass its result; every row must belong to a group).
ErrorTable batch_scaling_floor(const std::map<std::string, DeviceRows>& grouped);

// Per device and op: the MAPE of each group's best latency = a + b x items (a, b >= 0), over the
// rows of batch_scaling_rows (every row must belong to a group).
ErrorTable affine_floor(const std::map<std::string, DeviceRows>& grouped);

}  // namespace dse
