#include "sim/accel/scalesim_stalls.h"

#include <algorithm>
#include <cmath>

#include "models/base/ceil_div.h"
#include "models/base/checked_count.h"

namespace dse {

std::int64_t scalesim_stall_cycles(const GemmView& gemm, const SystolicRun& run, const ScaleSimConfig& config) {
  if (!config.user_bandwidth) return 0;
  const double words_per_kib = 1024;  // SCALE-Sim counts one-byte words
  const auto product = [](std::int64_t a, std::int64_t b) { return static_cast<double>(a) * static_cast<double>(b); };
  const double ifmap = product(gemm.m, gemm.k), filter = product(gemm.k, gemm.n), ofmap = product(gemm.m, gemm.n);
  const double ifmap_passes =
      ifmap <= config.ifmap_sram_kib * words_per_kib ? 1 : static_cast<double>(ceil_div(gemm.n, config.array.cols));
  const double filter_passes =
      filter <= config.filter_sram_kib * words_per_kib ? 1 : static_cast<double>(ceil_div(gemm.m, config.array.rows));
  const double words = static_cast<double>(gemm.batch) * (ifmap * ifmap_passes + filter * filter_passes + ofmap);
  const double transfer = std::ceil(words / config.bandwidth_words_per_cycle);
  if (!(transfer < 9.2e18)) throw CountOverflow("the interface cycles of a layer");
  return std::max<std::int64_t>(0, static_cast<std::int64_t>(transfer) - run.cycles);
}

}  // namespace dse
