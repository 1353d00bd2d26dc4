#!/usr/bin/env bash
# Submits a sweep as a Slurm job array of N shards plus the merge job that waits for all of them
# (--dependency=afterok): docs/cluster.md, "Job arrays".
#
#   configs/cluster/submit_array.sh configs/experiments/fast_efficientnet_b0.yaml 16
#
# The experiment's `output:` names the merged file; shard K writes OUTPUT.shard-K-of-N.h5 beside it.
set -euo pipefail
config=${1:?usage: submit_array.sh EXPERIMENT.yaml SHARDS [more dse flags]}
shards=${2:?usage: submit_array.sh EXPERIMENT.yaml SHARDS [more dse flags]}
shift 2
# The merged file: the last `-p output=...` among the flags, else the config's output: key.
output=$(python3 - "$config" "$@" <<'PY'
import sys, yaml
loader = yaml.SafeLoader
loader.add_multi_constructor("!", lambda loader, suffix, node: None)  # !include: not needed here
output = (yaml.load(open(sys.argv[1]), Loader=loader) or {}).get("output") or ""
flags = sys.argv[2:]
for flag, value in zip(flags, flags[1:]):
    if flag in ("-p", "--param") and value.startswith("output="):
        output = value[len("output="):]
print(output)
PY
)
array=$(sbatch --parsable --array="0-$((shards - 1))" configs/cluster/slurm_array.sh "$config" "$@")
merge=$(sbatch --parsable --dependency="afterok:${array%%;*}" configs/cluster/slurm_merge.sh "$output" "$shards")
echo "array job ${array%%;*} ($shards shards of $config), merge job $merge -> $output"
