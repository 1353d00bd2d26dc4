#!/usr/bin/env bash
# A search under `mpirun -n 2` gives the same trials (values, statuses, metrics) as on one process.
#   tests/mpi/same_search_on_two_ranks.sh DSE MPIRUN
set -euo pipefail
dse=$1
mpirun=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1  # CI runs as root
config=configs/experiments/search_gpu_batch.yaml
"$dse" run "$config" -p output="$work/one.h5" -q --json > "$work/one.json"
"$mpirun" -n 2 --oversubscribe "$dse" run "$config" -p output="$work/two.h5" -q --json > "$work/two.json"
python3 - "$work" <<'PY'
import json, sys
work = sys.argv[1]
def trials(name):
    out = {}
    for line in open(f"{work}/{name}.journal.jsonl"):
        d = json.loads(line)
        d.pop("wall_s", None)
        out[d.get("id", -1)] = d
    return out
one, two = trials("one"), trials("two")
assert len(one) == 46, len(one)
assert one == two, "journals differ between 1 and 2 ranks"
a, b = json.load(open(f"{work}/one.json")), json.load(open(f"{work}/two.json"))
assert a["best"] == b["best"] and a["status_counts"] == b["status_counts"], (a["best"], b["best"])
print("same search on 1 and 2 ranks:", len(one) - 1, "trials, best trial", a["best"]["trial"])
PY
