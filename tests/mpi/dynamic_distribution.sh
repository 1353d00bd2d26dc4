#!/usr/bin/env bash
# Under mpirun, rank 0 hands trials out as ranks ask (--distribution dynamic, the default): on a
# sweep whose trials differ 100x in cost (configs/cluster/mixed_cost_sweep.yaml) the journal holds
# the same trials as one process's with 2 ranks, 4 ranks (oversubscribed) and the static split, and
# so do aging evolution and Bayesian optimisation (which learn from each batch's results); the
# result file records the ranks and each one's load; a job killed with kill -9 and resumed with
# --resume loses and repeats no trial.
#   tests/mpi/dynamic_distribution.sh DSE MPIRUN
set -euo pipefail
dse=$1
mpirun=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1  # CI runs as root
config=configs/cluster/mixed_cost_sweep.yaml
"$dse" run "$config" -p output="$work/one.h5" -q --threads 2
"$mpirun" -n 2 --oversubscribe "$dse" run "$config" -p output="$work/two.h5" -q --threads 1 --json > "$work/two.json"
"$mpirun" -n 4 --oversubscribe "$dse" run "$config" -p output="$work/four.h5" -q --threads 1
"$mpirun" -n 2 --oversubscribe "$dse" run "$config" -p output="$work/static.h5" -q --threads 1 --distribution static
# Strategies that learn from results: rank 0 sends every rank each batch's results.
for strategy in "aging_evolution, population: 8" "bayes_opt"; do
  name=${strategy%%,*}
  learn=(-p "search.strategy={name: $strategy, trials: 32, batch: 8, seed: 3}")
  "$dse" run "$config" "${learn[@]}" -p output="$work/${name}_one.h5" -q --threads 2
  "$mpirun" -n 2 --oversubscribe "$dse" run "$config" "${learn[@]}" -p output="$work/${name}_two.h5" -q --threads 1
done

# Kill and resume: a longer sweep, killed once its journal holds 40 of its 480 trials.
long=(-p search.strategy.trials=480)
"$dse" run "$config" "${long[@]}" -p output="$work/long_one.h5" -q --threads 2
setsid "$mpirun" -n 2 --oversubscribe "$dse" run "$config" "${long[@]}" -p output="$work/killed.h5" -q --threads 1 &
job=$!
for _ in $(seq 1 1200); do
  done_trials=$(grep -c '"id"' "$work/killed.journal.jsonl" 2> /dev/null || true)
  [ "${done_trials:-0}" -ge 40 ] && break
  sleep 0.05
done
kill -9 -- -"$job" 2> /dev/null || true
wait "$job" 2> /dev/null || true
# Open MPI may start the ranks in process groups of their own, and a rank slow to die (under the
# sanitizers) still holds the journal's lock: kill what is left of the job and wait until none of it
# runs before resuming. ([k] keeps grep's own command line from matching.)
for _ in $(seq 1 200); do
  left=$(grep -lsa -- "$work/[k]illed\.h5" /proc/[0-9]*/cmdline 2> /dev/null | cut -d/ -f3 || true)
  [ -z "$left" ] && break
  kill -9 $left 2> /dev/null || true
  sleep 0.05
done
before=$(python3 -c "
import json, sys
n = 0
for line in open(sys.argv[1]):
    try: n += 'id' in json.loads(line)
    except ValueError: pass
print(n)" "$work/killed.journal.jsonl")
"$mpirun" -n 2 --oversubscribe "$dse" run "$config" "${long[@]}" -p output="$work/killed.h5" -q --threads 1 --resume \
  --json > "$work/resumed.json"

/usr/bin/python3 - "$work" "$before" <<'PY'
import json, sys
import h5py
work, before = sys.argv[1], int(sys.argv[2])
def trials(name):
    out = {}
    for line in open(f"{work}/{name}.journal.jsonl"):
        d = json.loads(line)
        if "id" not in d:
            continue
        assert d["id"] not in out, f"{name}: trial {d['id']} journaled twice"
        d.pop("wall_s")
        out[d["id"]] = d
    return out
one = trials("one")
costs = [json.loads(l)["wall_s"] for l in open(f"{work}/one.journal.jsonl") if '"id"' in l]
assert len(one) == 64, len(one)
for name in ("two", "four", "static"):
    assert trials(name) == one, f"{name}: journal differs from one process's"
for name in ("aging_evolution", "bayes_opt"):
    a, b = trials(f"{name}_one"), trials(f"{name}_two")
    assert len(a) == 32 and a == b, f"{name}: journal on 2 ranks differs from one process's"
with h5py.File(f"{work}/two.h5") as f:
    assert f["meta/ranks"][()] == 2, f["meta/ranks"][()]
    assert f["meta/distribution"][()].decode() == "dynamic"
    loads = f["meta/rank_load"]
    assert list(loads["rank"][:]) == [0, 1]
    assert sum(loads["trials"][:]) == 64, list(loads["trials"][:])
    assert all(0 < b <= 1 for b in loads["busy_share"][:]), list(loads["busy_share"][:])
with h5py.File(f"{work}/four.h5") as f:
    assert f["meta/ranks"][()] == 4 and sum(f["meta/rank_load/trials"][:]) == 64
with h5py.File(f"{work}/one.h5") as f:
    assert f["meta/ranks"][()] == 1
summary = json.load(open(f"{work}/two.json"))
assert [r["rank"] for r in summary["ranks"]] == [0, 1], summary["ranks"]
# Kill and resume: every trial once, the same as one process's, and only the missing ones simulated.
assert 0 < before < 480, f"the kill came at {before} trials: expected it mid-run"
assert trials("killed") == trials("long_one"), "the resumed journal differs from one process's"
resumed = json.load(open(f"{work}/resumed.json"))
assert resumed["evaluated_this_run"] <= 480 - before, (resumed["evaluated_this_run"], before)
print(f"same journal on 1, 2, 4 ranks and static (64 trials, costs {min(costs) * 1e3:.1f}-{max(costs) * 1e3:.1f} ms); "
      f"killed at {before} of 480 trials, resumed: {resumed['evaluated_this_run']} simulated")
PY
