// The serving simulation: requests arrive per tenant (sim/serving/arrivals.h), optionally pass a
// host stage, queue, and are batched (sim/serving/batching.h) onto the tenant's model instances
// (where a per-batch host stage runs before each pass);
// a batch costs what the device's own simulation of that pass says (sim/serving/batch_cost_table.h);
// a power sensor is read every sensor_period_s and a governor (sim/serving/governor.h) moves the
// batch size and the device's clock level (an operating point: Device::operating_points) on those
// readings while the run goes on. Runs on dse's event engine, on any device kind.
//
// Batches in flight at once (several instances or tenants) are works of the device's shared
// resource (sim/runtime/shared_resource.h), at the speeds its sharing rule between passes grants;
// the board draws idle + the leakage of the clock they run at + their dynamic power at those speeds.
//
// Contract: deterministic for a spec and seed; never fails on a validated experiment (a deadline
// throws SimulationTimeout).
#pragma once

#include "sim/run/experiment.h"
#include "sim/run/run_result.h"

namespace dse {

RunResult run_serving(const Experiment& experiment, WallDeadline deadline);

}  // namespace dse
