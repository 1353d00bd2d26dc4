// dse's stall model for SCALE-Sim's InterfaceBandwidth: USER (sim/accel/scalesim_stalls.h): a hand
// calculation of each SRAM case and the properties the model implies. No SCALE-Sim USER-mode
// output is in the reference data to check it against.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>

#include "models/base/checked_count.h"
#include "sim/accel/scalesim_stalls.h"

namespace dse {
namespace {

ScaleSimConfig user_config(std::int64_t rows, std::int64_t cols, double sram_kib, double words_per_cycle) {
  ScaleSimConfig config;
  config.array = {rows, cols, Dataflow::weight_stationary};
  config.ifmap_sram_kib = config.filter_sram_kib = config.ofmap_sram_kib = sram_kib;
  config.bandwidth_words_per_cycle = words_per_cycle;
  config.user_bandwidth = true;
  return config;
}

SystolicRun compute_cycles(std::int64_t cycles) {
  SystolicRun run;
  run.cycles = cycles;
  return run;
}

}  // namespace

TEST(ScaleSimStalls, HandComputed) {
  // Batch 2 of M = 6, N = 8, K = 3 on 2 rows x 4 cols at 5 words/cycle, 20 compute cycles:
  // ifmap M.K = 18 words, filter K.N = 24, ofmap M.N = 48; a re-read ifmap crosses
  // ceil(N / cols) = ceil(8 / 4) = 2 times, a re-read filter ceil(M / rows) = ceil(6 / 2) = 3 times.
  const GemmView gemm{2, 6, 8, 3};
  const SystolicRun run = compute_cycles(20);
  // Both fit 64 KiB: 2 x (18 + 24 + 48) = 180 words, ceil(180 / 5) = 36 cycles, 36 - 20 = 16 stalls.
  EXPECT_EQ(scalesim_stall_cycles(gemm, run, user_config(2, 4, 64, 5)), 16);
  // 0.02 KiB = 20.48 words: the ifmap (18) fits, the filter (24) does not:
  // 2 x (18 + 24 x 3 + 48) = 276 words, ceil(276 / 5) = ceil(55.2) = 56, 56 - 20 = 36 stalls.
  EXPECT_EQ(scalesim_stall_cycles(gemm, run, user_config(2, 4, 0.02, 5)), 36);
  // 0.01 KiB = 10.24 words: neither fits: 2 x (18 x 2 + 24 x 3 + 48) = 312 words,
  // ceil(312 / 5) = ceil(62.4) = 63, 63 - 20 = 43 stalls.
  EXPECT_EQ(scalesim_stall_cycles(gemm, run, user_config(2, 4, 0.01, 5)), 43);
  // 63 interface cycles against 63 or more compute cycles: no stall.
  EXPECT_EQ(scalesim_stall_cycles(gemm, compute_cycles(63), user_config(2, 4, 0.01, 5)), 0);
  EXPECT_EQ(scalesim_stall_cycles(gemm, compute_cycles(62), user_config(2, 4, 0.01, 5)), 1);
  // InterfaceBandwidth: CALC: SCALE-Sim reports no stalls, and neither does dse.
  ScaleSimConfig calc = user_config(2, 4, 0.01, 5);
  calc.user_bandwidth = false;
  EXPECT_EQ(scalesim_stall_cycles(gemm, run, calc), 0);
}

// More bandwidth or more SRAM never adds stalls; a layer whose traffic crosses within its compute
// cycles has none, and one whose traffic does not has some.
TEST(ScaleSimStalls, MoreBandwidthOrSramNeverAddsStalls) {
  const double bandwidths[] = {0.25, 1, 3, 16, 128};
  const double srams_kib[] = {0, 0.5, 8, 256};
  for (const GemmView gemm :
       {GemmView{1, 64, 64, 64}, GemmView{4, 197, 768, 64}, GemmView{1, 1, 4096, 1024}, GemmView{2, 3136, 64, 576}}) {
    for (const std::int64_t side : {8, 32, 128}) {
      const SystolicRun run = run_gemm(gemm, {side, side, Dataflow::weight_stationary});
      for (const double sram : srams_kib) {
        std::int64_t previous = INT64_MAX;
        for (const double bandwidth : bandwidths) {
          const std::int64_t stalls = scalesim_stall_cycles(gemm, run, user_config(side, side, sram, bandwidth));
          EXPECT_GE(stalls, 0);
          EXPECT_LE(stalls, previous) << "bandwidth " << bandwidth << ", SRAM " << sram << " KiB";
          previous = stalls;
        }
      }
      for (const double bandwidth : bandwidths) {
        std::int64_t previous = INT64_MAX;
        for (const double sram : srams_kib) {
          const std::int64_t stalls = scalesim_stall_cycles(gemm, run, user_config(side, side, sram, bandwidth));
          EXPECT_LE(stalls, previous) << "bandwidth " << bandwidth << ", SRAM " << sram << " KiB";
          previous = stalls;
        }
      }
      // Every operand fits and the interface moves the layer's words (ifmap + filter + ofmap, each
      // once) within its compute cycles (a whole number of words per cycle, rounded up): no stall.
      // With 1 % less than the words over the compute cycles, it stalls.
      const double words =
          static_cast<double>(gemm.batch) * static_cast<double>(gemm.m * gemm.k + gemm.k * gemm.n + gemm.m * gemm.n);
      const double enough = std::ceil(words / static_cast<double>(run.cycles));
      EXPECT_EQ(scalesim_stall_cycles(gemm, run, user_config(side, side, 1e6, enough)), 0);
      const double short_of_it = 0.99 * words / static_cast<double>(run.cycles);
      EXPECT_GT(scalesim_stall_cycles(gemm, run, user_config(side, side, 1e6, short_of_it)), 0);
    }
  }
}

TEST(ScaleSimStalls, InterfaceCyclesPast64BitsAreRefused) {
  // 10^6 x 10^6 x 10^6, batch 10^3, on 128 x 128 with 64 KiB SRAMs at 1 word/cycle: neither 10^12-word
  // operand fits, each crosses ceil(10^6 / 128) = 7,813 times: 10^3 x (2 x 7,813 + 1) x 10^12 words
  // = 1.5627 x 10^19 cycles, past 9.2 x 10^18.
  try {
    scalesim_stall_cycles({1000, 1000000, 1000000, 1000000}, compute_cycles(1), user_config(128, 128, 64, 1));
    FAIL() << "no CountOverflow";
  } catch (const CountOverflow& error) {
    EXPECT_EQ(std::string(error.what()),
              "the interface cycles of a layer exceeds what a 64-bit count holds (9.2e18); use a smaller shape or "
              "batch");
  }
}

}  // namespace dse
