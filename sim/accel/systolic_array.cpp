#include "sim/accel/systolic_array.h"

#include "models/base/ceil_div.h"
#include "models/base/checked_count.h"

namespace dse {

SystolicRun run_gemm(const GemmView& gemm, const SystolicArray& array) {
  const std::int64_t h = array.rows, w = array.cols, sr = gemm.m, sc = gemm.n, t = gemm.k;
  std::int64_t folds = 0, per_fold = 0, mapped = 0;
  switch (array.dataflow) {
    case Dataflow::output_stationary:
      folds = checked_mul(ceil_div(sr, h), ceil_div(sc, w), "the folds of a systolic-array GEMM");
      per_fold = t + h + w - 2;
      mapped = checked_mul(sr, sc, "the mapped elements of a systolic-array GEMM");
      break;
    case Dataflow::weight_stationary:
      folds = checked_mul(ceil_div(t, h), ceil_div(sc, w), "the folds of a systolic-array GEMM");
      per_fold = sr + 2 * h + w - 2;
      mapped = checked_mul(t, sc, "the mapped elements of a systolic-array GEMM");
      break;
    case Dataflow::input_stationary:
      folds = checked_mul(ceil_div(t, h), ceil_div(sr, w), "the folds of a systolic-array GEMM");
      per_fold = sc + 2 * h + w - 2;
      mapped = checked_mul(t, sr, "the mapped elements of a systolic-array GEMM");
      break;
  }
  SystolicRun run;
  const char* what = "the cycles of a systolic-array GEMM";
  run.folds = checked_mul(folds, gemm.batch, what);
  run.cycles = checked_mul(run.folds, per_fold, what) - 1;
  run.mapping_efficiency =
      static_cast<double>(mapped) / (static_cast<double>(folds) * static_cast<double>(h) * static_cast<double>(w));
  run.utilization = static_cast<double>(gemm.macs()) / (static_cast<double>(run.cycles) * static_cast<double>(h * w));
  return run;
}

}  // namespace dse
