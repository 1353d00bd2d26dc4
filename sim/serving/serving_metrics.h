// The metrics of a serving run, from its trace (sim/serving/serving_trace.h), over the measured
// window [warmup_s, duration_s] (or to the last completion for a run of a number of requests):
// requests are those that arrived at or after warmup_s and completed within the window.
// Percentiles are nearest-rank (the ceil(p n)-th smallest).
#pragma once

#include <string>
#include <vector>

#include "sim/run/experiment.h"
#include "sim/run/run_result.h"
#include "sim/serving/serving_trace.h"

namespace dse {

std::vector<std::string> serving_metric_names(const Experiment& experiment);
// Sets serving_metric_names(experiment) on result.metrics, in that order, less those with nothing
// to measure (left out rather than 0, so a search's constraint on one is unmet): the latencies with
// no request arriving in the window, batch_mean with no batch, power_peak_w and
// periods_over_cap_share with no sensor reading, batches_over_cap_share with no batch logged with a
// reading. `result.power` holds the run's board power series.
void add_serving_metrics(RunResult& result, const ServingTrace& trace, const Experiment& experiment);

// The nearest-rank percentile `p` (0..1] of `values` (reorders them); 0 when empty.
double nearest_rank_percentile(std::vector<double>& values, double p);

}  // namespace dse
