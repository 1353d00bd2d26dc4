#!/usr/bin/env bash
# The P4's dram_activation.row_span_kib (configs/hardware/gpu/p4.yaml): the consecutive addresses
# one open DRAM row serves (sim/gpu/dram_activation_model.h), chosen on NeuSight's P4 training bmm
# rows (tests/data/neusight/train_bmm_p4.csv), which no other fit reads, with the default
# calibration and the spec's other values. Prints the rows' MAPE at each span and the best; the
# test split (tests/data/neusight/test_bmm.csv) then scores it.
#   scripts/fit_dram_row_span.sh [path/to/dse]
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
dse=${1:-"$here/build/dse"}
rows="$here/tests/data/neusight/train_bmm_p4.csv"
spec="$here/configs/hardware/gpu/p4.yaml"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/hardware/gpu"
mape_at() {  # MAPE % of the P4 rows of $2 with the spec's row span set to $1 KiB
  sed -E "s/row_span_kib: [0-9.]+/row_span_kib: $1/" "$spec" > "$work/hardware/gpu/p4.yaml"
  DSE_CONFIG_DIR="$work" "$dse" validate kernels "$2" --json 2>/dev/null |
    python3 -c 'import json, sys; print("%.2f" % json.load(sys.stdin)["devices"]["p4"]["bmm"]["mape_pct"])'
}
best="" best_mape=""
printf 'span KiB  train MAPE %%  (P4 bmm, %s)\n' "$(basename "$rows")"
for span in 0.25 0.5 1 2 4 8 64; do
  mape=$(mape_at "$span" "$rows")
  printf '%8s  %12s\n' "$span" "$mape"
  if [[ -z "$best" ]] || python3 -c "import sys; sys.exit(0 if $mape < $best_mape else 1)"; then
    best=$span
    best_mape=$mape
  fi
done
echo "best: $best KiB ($best_mape %); test bmm rows at it: $(mape_at "$best" "$here/tests/data/neusight/test_bmm.csv") %"
