#!/usr/bin/env bash
# The out-of-sample table of docs/validation.md ("Out of sample: NeuSight's training shapes"): the
# kernel model with the default calibration on the linear and bmm rows NeuSight trained on, which
# are not in this repository and which no dse fit has seen.
#   scripts/check_training_shapes.sh NEUSIGHT_CHECKOUT [path/to/dse]
# NEUSIGHT_CHECKOUT: a checkout of github.com/trsharm25/NeuSight (commit bca31fb or later).
# Prints MAPE % over all rows / over rows of at least 0.1 ms (median error of those) per GPU.
set -euo pipefail
if [[ $# -lt 1 ]]; then
  echo "usage: $0 NEUSIGHT_CHECKOUT [path/to/dse]" >&2
  exit 2
fi
dir="$1/scripts/asplos/data/dataset/train/collect"
dse=${2:-"$(dirname "$0")/../build/dse"}
if [[ ! -d "$dir/linear/p2.1.0" || ! -d "$dir/bmm/p2.1.0" ]]; then
  echo "$0: $dir/{linear,bmm}/p2.1.0: not found (expected a NeuSight checkout)" >&2
  exit 2
fi
predictions=$(mktemp)
trap 'rm -f "$predictions"' EXIT
"$dse" validate kernels "$dir"/linear/p2.1.0/*.csv "$dir"/bmm/p2.1.0/*.csv --predictions "$predictions" -q
python3 - "$predictions" <<'PY'
import csv, statistics, sys
from collections import defaultdict
rows = defaultdict(list)
for r in csv.DictReader(open(sys.argv[1])):
    rows[(r["device"], r["op"])].append((float(r["measured_ms"]), float(r["predicted_ms"])))
def cell(pairs):
    mape = lambda v: 100 * statistics.mean(abs(p / m - 1) for m, p in v)
    long = [x for x in pairs if x[0] >= 0.1]
    if not long:
        return f"{mape(pairs):.1f} / —"
    median = 100 * statistics.median(p / m - 1 for m, p in long)
    return f"{mape(pairs):.1f} / {mape(long):.1f} ({median:+.1f})"
print("| GPU | linear | bmm |\n|---|---:|---:|")
for gpu in sorted({g for g, _ in rows}):
    print(f"| {gpu} | " + " | ".join(cell(rows[(gpu, op)]) if rows[(gpu, op)] else "—" for op in ("linear", "bmm")) + " |")
PY
