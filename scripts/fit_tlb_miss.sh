#!/usr/bin/env bash
# The default of tlb_miss_cycles_per_row (sim/gpu/kernel_timer.h): the cycles a GEMM main loop's
# row read that misses the P100's L1 TLB costs its SM (sim/gpu/translation_model.h), chosen on
# NeuSight's P100 training linear rows (tests/data/neusight/train_linear_p100.csv), which no other
# fit reads, with every other parameter at its default. Prints the rows' MAPE at each value on a
# grid and the best; the test split (tests/data/neusight/test_linear.csv) then scores it.
#   scripts/fit_tlb_miss.sh [path/to/dse]
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
dse=${1:-"$here/build/dse"}
rows="$here/tests/data/neusight/train_linear_p100.csv"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$dse" validate kernels "$rows" --save-calibration "$work/defaults.yaml" -q
best="" best_mape=""
printf 'cycles  train MAPE %%  (P100 linear, %s)\n' "$(basename "$rows")"
for cycles in 0 5 10 12 13 14 15 16 17 18 20 25; do
  sed "s/^  tlb_miss_cycles_per_row: .*/  tlb_miss_cycles_per_row: $cycles/" "$work/defaults.yaml" > "$work/at.yaml"
  mape=$("$dse" validate kernels "$rows" --calibration "$work/at.yaml" --json 2>/dev/null |
    python3 -c 'import json, sys; print("%.2f" % json.load(sys.stdin)["devices"]["p100_pcie"]["linear"]["mape_pct"])')
  printf '%6s  %12s\n' "$cycles" "$mape"
  if [[ -z "$best" ]] || python3 -c "import sys; sys.exit(0 if $mape < $best_mape else 1)"; then
    best=$cycles
    best_mape=$mape
  fi
done
echo "best: $best cycles ($best_mape %)"
