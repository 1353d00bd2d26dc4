#!/usr/bin/env bash
# The prior of shared_fp32_lane_efficiency (sim/gpu/kernel_timer.h, kSharedFp32LaneEfficiencyPrior):
# the rate that GA10x / Ada FP32 lanes shared with INT32 deliver in GEMM loops, for fits that hold
# no such GPU (leave-one-out holding out the L4, the only one in NeuSight's rows). Chosen on an RTX
# A6000's published cuBLAS SGEMM loops (tests/data/public/rtx_a6000_cublas_sgemm.csv;
# siboehm/SGEMM_CUDA; the A40's and L4's PyTorch 2.9-2.11 rows, a later cuBLAS, are not used:
# docs/power.md), with every other parameter at
# its default: prints, at each rate on a grid, the fit's loss over the rows of 0.1 ms or more (the
# pseudo-Huber loss of log(predicted / measured), 5 % scale: hwcal/kernel_fit.h fit_row_loss) and
# their MAPE, then the best. The N = 512 row (25 us) is left out: dse is 22-29 % fast there at any
# rate, the launch's cost outside its main loop.
#   scripts/fit_shared_lane_prior.sh [path/to/dse]
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
dse=${1:-"$here/build/dse"}
rows="$here/tests/data/public/rtx_a6000_cublas_sgemm.csv"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$dse" validate kernels "$here/tests/data/neusight/test_ln.csv" --save-calibration "$work/defaults.yaml" -q
best="" best_loss=""
printf 'rate   loss      MAPE %%  (RTX A6000 cuBLAS SGEMM, N >= 1,024)\n'
for rate in $(seq 0.25 0.01 0.60); do
  sed "s/^  shared_fp32_lane_efficiency: .*/  shared_fp32_lane_efficiency: $rate/" "$work/defaults.yaml" > "$work/at.yaml"
  read -r loss mape < <("$dse" validate gemm "$rows" --gpu rtx_a6000 --dtype fp32 --back-to-back \
    --calibration "$work/at.yaml" --json 2>/dev/null | python3 -c '
import json, math, sys
rows = [r for r in json.load(sys.stdin)["rows"] if r["measured_ms"] >= 0.1]
def loss(r):  # hwcal/kernel_fit.h fit_row_loss (kHuberScale 0.05); KernelFit.TheSharedLanesPriorIsTheRtxA6000sBest calls it
    u = math.log(r["predicted_ms"] / r["measured_ms"]) / 0.05
    return 0.05 ** 2 * 2 * (math.sqrt(1 + u * u) - 1)
print("%.6f %.2f" % (sum(map(loss, rows)), sum(abs(r["predicted_ms"] / r["measured_ms"] - 1) for r in rows) / len(rows) * 100))')
  printf '%4s  %.6f  %6s\n' "$rate" "$loss" "$mape"
  if [[ -z "$best" ]] || python3 -c "import sys; sys.exit(0 if $loss < $best_loss else 1)"; then
    best=$rate
    best_loss=$loss
  fi
done
echo "best: $best (loss $best_loss)"
