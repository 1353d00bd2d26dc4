#!/usr/bin/env bash
# Joins the N shards of a sweep (configs/cluster/slurm_array.sh) into the result file the unsharded
# run writes: OUTPUT.h5, OUTPUT.best.yaml and the summary (docs/cluster.md, "Job arrays"). Submitted
# by configs/cluster/submit_array.sh with --dependency=afterok on the array, so it runs only when
# every shard succeeded; dse merge itself refuses missing, unfinished or foreign shards, naming them.
#
#   sbatch --dependency=afterok:ARRAY_JOB_ID configs/cluster/slurm_merge.sh results/X.h5 16
#
#SBATCH --job-name=dse-merge
#SBATCH --ntasks=1
#SBATCH --cpus-per-task=1
#SBATCH --time=00:30:00
set -euo pipefail
output=${1:?usage: slurm_merge.sh OUTPUT.h5 SHARDS}
shards=${2:?usage: slurm_merge.sh OUTPUT.h5 SHARDS}
stem=${output%.h5}
files=()
for ((k = 0; k < shards; ++k)); do files+=("$stem.shard-$k-of-$shards.h5"); done
build/dse merge "$output" "${files[@]}"
