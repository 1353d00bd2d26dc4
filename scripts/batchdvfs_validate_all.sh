#!/usr/bin/env bash
# `dse validate batchdvfs` on every recorded run of the BatchDVFS paper (tests/data/batchdvfs/*/*.csv,
# or the runs given): one CSV row per run (skipped ones say why), the markdown table of
# docs/batch_dvfs.md ("The paper's pipeline") on stdout, and the median absolute error of the mean
# logged power over the runs simulated. Over every reference run (no RUN given) the table also
# replaces docs/batch_dvfs.md's generated section (scripts/replace_doc_section.py; DSE_DOCS_OUT=DIR
# writes it elsewhere).
#   scripts/batchdvfs_validate_all.sh [path/to/dse] [out.csv] [RUN.csv ...]
#   (default build/dse, results/batchdvfs_validation.csv, every run in tests/data/batchdvfs)
set -euo pipefail
cd "$(dirname "$0")/.."
dse=${1:-build/dse}
out=${2:-results/batchdvfs_validation.csv}
shift $(( $# < 2 ? $# : 2 ))
runs=("$@")
[ ${#runs[@]} -gt 0 ] || runs=(tests/data/batchdvfs/batchdvfs/*.csv tests/data/batchdvfs/clipper/*.csv tests/data/batchdvfs/dvfs256/*.csv)
mkdir -p "$(dirname "$out")"
jsonl=$(mktemp)
trap 'rm -f "$jsonl"' EXIT
for run in "${runs[@]}"; do
  "$dse" validate batchdvfs "$run" --json -q | tr -d '\n' >> "$jsonl"
  echo >> "$jsonl"
done
table=$(mktemp)
trap 'rm -f "$jsonl" "$table"' EXIT
python3 - "$jsonl" "$out" > "$table" <<'EOF'
import csv, json, statistics, sys
rows = [json.loads(line) for line in open(sys.argv[1]) if line.strip()]
stats = ["power_mean_w", "over_cap_share", "batch_mean", "images_per_s"]
def clocks(shares):
    return " ".join("%s:%.3f" % (mhz, share) for mhz, share in sorted(shares.items(), key=lambda kv: int(kv[0])))
def error_pct(r):
    rec, sim = r["recorded"]["power_mean_w"], r["simulated"]["power_mean_w"]  # null: no batch logged one
    return 100 * (sim - rec) / rec if rec and sim is not None else float("nan")
for r in rows:
    for side in ("recorded", "simulated"):
        if "skipped" not in r:
            r[side] = {k: (float("nan") if v is None else v) for k, v in r[side].items()}
with open(sys.argv[2], "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["run", "model", "controller", "power_cap_w", "duration_s", "power_mean_error_pct"] +
               [side + "_" + s for s in stats + ["clock_time_share"] for side in ("recorded", "simulated")] +
               ["skipped"])
    for r in rows:
        if "skipped" in r:
            w.writerow([r["run"]] + [""] * (5 + 2 * (len(stats) + 1)) + [r["skipped"]])
            continue
        cells = [r["run"], r["model"], r["controller"], "%g" % r["power_cap_w"], "%.1f" % r["duration_s"],
                 "%.2f" % error_pct(r)]
        for s in stats:
            cells += ["%.4g" % r[side][s] for side in ("recorded", "simulated")]
        cells += [clocks(r[side]["clock_time_share"]) for side in ("recorded", "simulated")]
        w.writerow(cells + [""])
print("| run | cap W | mean logged power W, recorded / dse (error) | batches over the cap, recorded / dse | "
      "mean batch, recorded / dse | images/s (wall clock), recorded / dse | time at each clock, recorded / dse (MHz: share) |")
print("|---|---:|---|---|---|---|---|")
simulated = [r for r in rows if "skipped" not in r]
for r in rows:
    if "skipped" in r:
        print("| %s | | skipped: %s | | | | |" % (r["run"], r["skipped"]))
        continue
    rec, sim = r["recorded"], r["simulated"]
    print("| %s | %g | %.1f / %.1f (%+.1f %%) | %.1f %% / %.1f %% | %.1f / %.1f | %.1f / %.1f | %s / %s |" % (
        r["run"], r["power_cap_w"], rec["power_mean_w"], sim["power_mean_w"], error_pct(r),
        100 * rec["over_cap_share"], 100 * sim["over_cap_share"], rec["batch_mean"], sim["batch_mean"],
        rec["images_per_s"], sim["images_per_s"], clocks(rec["clock_time_share"]), clocks(sim["clock_time_share"])))
if simulated:
    errors = [abs(e) for e in map(error_pct, simulated) if e == e]
    print()
    print("median absolute mean-power error: %.1f %% over %d runs simulated (%d skipped: not in dse's zoo)" %
          (statistics.median(errors), len(simulated), len(rows) - len(simulated)))
print(sys.argv[2], file=sys.stderr)
EOF
cat "$table"
[ $# -gt 0 ] || python3 scripts/replace_doc_section.py docs/batch_dvfs.md batchdvfs_validation < "$table"
