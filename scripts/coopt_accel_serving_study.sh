#!/usr/bin/env bash
# The accelerator + serving co-design of configs/experiments/coopt_accel_serving.yaml against the
# same search with one part held fixed (docs/search.md, "Co-design on the accelerator"): the design
# fixed at tpu_v3_like; the serving fixed (dynamic batching up to 16, no DVFS: the static governor at
# the design clock); DVFS off (design and batch searched, the clock at the design's). Then re-runs the
# co-design's best config without the search and checks it gives the same energy per request.
#   scripts/coopt_accel_serving_study.sh [path/to/dse]      (8 s on 2 cores, 2026-12-08)
set -euo pipefail
cd "$(dirname "$0")/.."
dse=${1:-build/dse}
config=configs/experiments/coopt_accel_serving.yaml
design='device.cores.x: {pow2: [1, 4]}, device.cores.y: {pow2: [1, 4]}, device.array.rows: {pow2: [32, 256]},
  device.array.cols: {pow2: [32, 256]}, device.dram.bandwidth_gbps: {choice: [300, 600, 900, 1200]},
  device.clock_mhz: {choice: [470, 705, 940, 1175]}'
table=$(mktemp)
trap 'rm -f "$table"' EXIT
DSE="$dse" CONFIG="$config" DESIGN="$design" /usr/bin/python3 - > "$table" << 'EOF_PY'
import json, os, subprocess, sys
dse, config, design = os.environ["DSE"], os.environ["CONFIG"], os.environ["DESIGN"]

def run(*overrides):
    args = [dse, "run", config, "--json", "-q", "-p", "output=~"]
    for o in overrides:
        args += ["-p", o]
    return json.loads(subprocess.run(args, check=True, capture_output=True, text=True).stdout)

variants = [
    ("co-design: design, batch limit, governor (and so clock level)", []),
    ("design fixed at tpu_v3_like", ['search.space={"workload.serving.tenants[0].batching.max_batch": {pow2: [1, 64]}, '
                                     "workload.serving.governor.name: {choice: [model_based, dvfs_only, clipper_power]}}"]),
    ("serving fixed: batches up to 16, design clock (no DVFS)",
     ["workload.serving.governor={name: static, batch: 16, power_cap_w: 160}", "search.space={" + design + "}"]),
    ("DVFS off: design and batch limit, design clock",
     ["workload.serving.tenants[0].batching.max_batch=64", "workload.serving.governor={name: static, batch: 16, power_cap_w: 160}",
      "search.space={" + design + ", workload.serving.governor.batch: {pow2: [1, 64]}}"]),
]
print("| search | best design and serving | J/request | W avg / peak | p99 ms | clock MHz | area mm² | feasible |")
print("|---|---|---|---|---|---|---|---|")
best_config = None
for label, overrides in variants:
    r = run(*overrides)
    counts = r["status_counts"]
    best = r.get("best")
    if not best:
        print(f"| {label} | none meets the cap, the SLO and the load | | | | | | 0 of {sum(counts.values())} |")
        continue
    m, v = best["metrics"], best["values"]
    short = ", ".join(f"{k.replace('device.', '').replace('workload.serving.', '').replace('tenants[0].batching.', '')}={x}"
                      for k, x in v.items())
    print(f"| {label} | {short} | {m['energy_per_inference_j']:.4f} | {m['power_avg_w']:.1f} / {m['power_peak_w']:.1f} "
          f"| {m['latency_p99_ms']:.2f} | {m['clock_mhz']:.0f} | {m['area_mm2']:.0f} | {counts.get('ok', 0)} of {sum(counts.values())} |")
    if best_config is None:
        best_config = (v, m)
# The co-design's best, run again without the search, gives the same energy per request.
values, metrics = best_config
again = run("search=~", *[f"{k}={x}" for k, x in values.items()])["metrics"]
if abs(again["energy_per_inference_j"] / metrics["energy_per_inference_j"] - 1) > 1e-9:
    sys.exit(f"the best config re-run gives {again['energy_per_inference_j']} J, the search {metrics['energy_per_inference_j']} J")
print()
print(f"Re-running the co-design's best without the search gives the same {again['energy_per_inference_j']:.6f} J per "
      f"request (`-p search=~` and its values as `-p KEY=VALUE`).")
EOF_PY
python3 scripts/replace_doc_section.py docs/search.md coopt_serving < "$table"
echo "docs/search.md updated" >&2
