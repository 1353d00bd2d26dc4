// The serving simulation: requests arrive per tenant (sim/serving/arrivals.h), optionally pass a
// host stage, queue, and are batched (sim/serving/batching.h) onto the tenant's model instances;
// a batch costs what the device's own simulation of that pass says (sim/serving/batch_cost_table.h);
// a power sensor is read every sensor_period_s and a governor (sim/serving/governor.h) moves the
// batch size and SM clock on those readings while the run goes on. Runs on dse's event engine.
//
// Batches in flight at once (several instances or tenants) share the GPU: each runs at speed
// 1 / max(1, sum of their GPU shares), and the board draws idle + leakage + the sum of their
// dynamic power scaled by that speed.
//
// Contract: deterministic for a spec and seed; never fails on a validated experiment (a deadline
// throws SimulationTimeout).
#pragma once

#include "sim/run/experiment.h"
#include "sim/run/run_result.h"

namespace dse {

RunResult run_serving(const Experiment& experiment, WallDeadline deadline);

}  // namespace dse
