#!/usr/bin/env bash
# Slurm job arrays: `dse run X.yaml --shard K/N` runs a deterministic 1/N of a random, grid or Sobol
# sweep; `dse merge` joins the shards into the file the unsharded run writes (same /config, /trials,
# /pareto, /best, /baseline; same best config). Refused, with exit 2 and the shard named: a missing
# shard, a shard twice, shards of different configs, an unfinished shard (until it is re-run with
# --resume, which simulates only its missing trials), --shard on a strategy that learns from
# results, a malformed --shard or one of more shards than a cluster runs, an output that is one of
# the shards' files, and a journal that is not a regular file.
#   tests/cli/shard_merge.sh DSE
set -euo pipefail
dse=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
config=configs/cluster/mixed_cost_sweep.yaml
# Two objectives, so the Pareto front is compared too; a constraint, so some trials are infeasible.
two=(-p 'search.objective=[{maximize: throughput_per_s}, {minimize: latency_mean_ms}]'
     -p 'search.constraints={throughput_per_s: {ge: 1990}}')
"$dse" run "$config" "${two[@]}" -p output="$work/full.h5" -q
for k in 0 1 2; do "$dse" run "$config" "${two[@]}" -p output="$work/s.h5" --shard "$k/3" -q; done
"$dse" merge "$work/merged.h5" "$work"/s.shard-{0,1,2}-of-3.h5 -q --json > "$work/merged.json"

expect_refusal() {  # expect_refusal TEXT COMMAND...: exit 2 and TEXT on stderr
  local text=$1
  shift
  set +e
  "$@" > /dev/null 2> "$work/err"
  local code=$?
  set -e
  if [ "$code" -ne 2 ] || ! grep -qF -- "$text" "$work/err"; then
    echo "expected exit 2 and '$text' from: $*; got $code:" >&2
    cat "$work/err" >&2
    exit 1
  fi
}
expect_refusal "missing shards 2/3" "$dse" merge "$work/m.h5" "$work"/s.shard-{0,1}-of-3.h5
expect_refusal "are both shard 1/3" "$dse" merge "$work/m.h5" "$work"/s.shard-{0,1,1,2}-of-3.h5
"$dse" run "$config" "${two[@]}" -p output="$work/other.h5" -p workload.serving.tenants[0].slo_ms=30 --shard 2/3 -q
expect_refusal "shards of different experiments" "$dse" merge "$work/m.h5" "$work"/s.shard-{0,1}-of-3.h5 \
  "$work/other.shard-2-of-3.h5"
expect_refusal "found one of a search run whole" "$dse" merge "$work/m.h5" "$work/full.h5"
expect_refusal "no $work/nothing.journal.jsonl" "$dse" merge "$work/m.h5" "$work/nothing.h5"
expect_refusal "cannot be run apart" "$dse" run configs/experiments/search_gpu_batch.yaml --shard 0/2 \
  -p search.strategy.name=aging_evolution -p output="$work/evo.h5"
expect_refusal "expected K/N" "$dse" run "$config" --shard 1of3 -p output="$work/x.h5"
expect_refusal "0 <= K < N" "$dse" run "$config" --shard 3/3 -p output="$work/x.h5"
expect_refusal "expected at most 100000 shards" "$dse" run "$config" --shard 0/999999999 -p output="$work/x.h5"
# The merged file never replaces an input: a shard's journal is the only record of its trials.
cp "$work/s.shard-0-of-3.journal.jsonl" "$work/journal0"
expect_refusal "over shard 0/3's journal" "$dse" merge "$work/s.shard-0-of-3.journal.jsonl" "$work"/s.shard-{0,1,2}-of-3.h5
cmp -s "$work/journal0" "$work/s.shard-0-of-3.journal.jsonl" || { echo "merge replaced shard 0's journal" >&2; exit 1; }
expect_refusal "over shard 1/3's result file" "$dse" merge "$work/./s.shard-1-of-3.h5" "$work"/s.shard-{0,1,2}-of-3.h5
# Journals are inputs like any other: a FIFO or a link to /dev/zero is refused, not read forever.
mkfifo "$work/fifo.journal.jsonl"
ln -s /dev/zero "$work/zero.journal.jsonl"
expect_refusal "found a FIFO" timeout 60 "$dse" merge "$work/m.h5" "$work/fifo.h5"
expect_refusal "found a character device" timeout 60 "$dse" merge "$work/m.h5" "$work/zero.h5"
# An unfinished shard (its journal cut to 8 trials, as a kill leaves it) is refused, then re-run.
head -n 9 "$work/s.shard-1-of-3.journal.jsonl" > "$work/cut" && mv "$work/cut" "$work/s.shard-1-of-3.journal.jsonl"
expect_refusal "shard 1/3 lacks 13 of its 21 trials" "$dse" merge "$work/m.h5" "$work"/s.shard-{0,1,2}-of-3.h5
"$dse" run "$config" "${two[@]}" -p output="$work/s.h5" --shard 1/3 --resume -q --json > "$work/rerun.json"
"$dse" merge "$work/again.h5" "$work"/s.shard-{0,1,2}-of-3.h5 -q

/usr/bin/python3 - "$work" <<'PY'
import json, sys
import h5py
work = sys.argv[1]
def datasets(path):
    out = {}
    with h5py.File(path) as f:
        def visit(name, obj):
            if isinstance(obj, h5py.Dataset) and not name.startswith("meta"):
                out[name] = obj[()].tolist() if obj.shape else obj[()]
        f.visititems(visit)
    # The runs here differ in their output path alone (full.h5, s.h5): one config file in real use.
    out["config"] = out["config"].decode().replace(f"{work}/full.h5", "OUT").replace(f"{work}/s.h5", "OUT")
    return out
full = datasets(f"{work}/full.h5")
assert len(full["trials/id"]) == 64 and len(full["pareto/trial"]) > 1, (len(full["trials/id"]), full["pareto/trial"])
for name in ("merged", "again"):
    merged = datasets(f"{work}/{name}.h5")
    assert set(merged) == set(full), set(merged) ^ set(full)
    for key in full:
        assert repr(merged[key]) == repr(full[key]), f"{name}: /{key} differs from the unsharded run's"
with h5py.File(f"{work}/merged.h5") as f:
    assert len(f["meta/merged_from"]) == 3
with h5py.File(f"{work}/s.shard-1-of-3.h5") as f:
    assert f["meta/shard"][()].decode() == "1/3" and len(f["trials/id"]) == 21
best = lambda p: open(p).read().replace("full.best.h5", "X").replace("merged.best.h5", "X")
assert best(f"{work}/full.best.yaml") == best(f"{work}/merged.best.yaml"), "best configs differ"
rerun = json.load(open(f"{work}/rerun.json"))
assert rerun["evaluated_this_run"] == 13, rerun["evaluated_this_run"]
print(f"3 shards merged = the unsharded run ({len(full)} datasets, 64 trials, {len(full['pareto/trial'])} on the "
      "front); refusals named; the cut shard re-ran its 13 missing trials")
PY
