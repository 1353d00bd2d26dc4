// DOPpler's parallel measurement (Borowiec et al., IEEE TPDS 2023, as in the authors' public code):
// the degree of parallelism set by a controller modelled on TCP BIC, outliers found by the
// double-MAD modified z-score, and the timeout that grows with the parallelism. The session
// (hwcal/measure/session.h) runs them.
#pragma once

#include <cstddef>
#include <vector>

namespace dse {

struct ParallelSettings {
  bool adaptive = true;                       // the controller sets the degree of parallelism; else `dop` throughout
  int dop = 1;                                // fixed: candidates measured at once
  double beta = 0.2;                          // multiplicative back-off
  double error_threshold = 0.05;              // mean re-measurement error that backs off
  double failure_threshold = 0.05;            // share of a chunk failing under parallelism that backs off
  int increment_min = 2, increment_max = 12;  // an increase is clamped to these
  int ceiling = 128;                          // W_max's start, and the largest dop
  double remeasure_share = 0.2;               // of a chunk's good candidates, re-measured serially at random
  double outlier_z = 3;                       // modified z-score above which a measurement is an outlier
  double bias_limit = 0.25;                   // the others are corrected by (1 - bias) only below this bias
  double isolate_top_share = 0.05;            // the fastest candidates, re-measured alone at the end
  // dse beyond DOPpler: with `model` packing a chunk takes, in order, the candidates whose GPU
  // shares (as dse's uncalibrated model predicts them) sum to at most one, up to dop of them, so
  // kernels that would queue for the same SMs are not measured at once; `none` is DOPpler's (the
  // next dop candidates).
  bool model_packing = false;
};

// The degree of parallelism: starts at 1; after each chunk it backs off (W_max = dop (2 - beta) / 2
// below W_max, else dop; dop = floor(dop (1 - beta)), and at least one fewer) when the chunk's
// re-measurement error or failure share passes its threshold, else grows by (W_max - dop) / 2
// below W_max or dop - W_max above it, clamped to [increment_min, increment_max] (BIC's binary
// search towards the last window that failed, then slow probing past it). The summary of DOPpler's
// code adds one to dop after every chunk before this; with beta = 0.2 that cannot back off below 4
// (floor(5 x 0.8) = 4), so dse leaves it out and backs off by at least one (docs/calibration.md).
class DopController {
 public:
  explicit DopController(const ParallelSettings& settings);
  int dop() const { return dop_; }
  double w_max() const { return w_max_; }
  void update(double error, double failure_share);
  void restore(int dop, double w_max);  // a resumed session's state

 private:
  ParallelSettings settings_;
  int dop_ = 1;
  double w_max_ = 128;
};

// The timeout of one candidate at `dop` workers: DOPpler's 4 s at 1, 9 s at 16, 17 s at 32 and 20
// s from 64 (linear between), scaled by base_s / 4.
double timeout_at_dop(double base_s, int dop);

// Indices of the values whose double-MAD modified z-score 0.6745 |x - median| / MAD exceeds
// `threshold`, with the MAD of the values on the same side of the median as x (the lower and the
// upper half may spread differently). A side with no spread (MAD 0) uses |x - median| / (1.2533 x
// its mean absolute deviation) instead (Iglewicz and Hoaglin); with none either, nothing there is.
std::vector<std::size_t> double_mad_outliers(const std::vector<double>& values, double threshold);

}  // namespace dse
