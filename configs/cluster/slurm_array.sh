#!/usr/bin/env bash
# One shard of a sweep per Slurm array task (docs/cluster.md, "Job arrays"): task K of N runs the
# trials whose id mod N is K of a grid, random, sobol or latin_hypercube search into
# OUTPUT.shard-K-of-N.h5 (and its journal). A task that died is re-run with the same command: it
# resumes its journal and simulates only the trials it lacks. configs/cluster/submit_array.sh submits
# this array and the merge job that waits for it.
#
#   sbatch --array=0-15 configs/cluster/slurm_array.sh configs/experiments/fast_efficientnet_b0.yaml
#
#SBATCH --job-name=dse-shard
#SBATCH --ntasks=1
#SBATCH --cpus-per-task=16
#SBATCH --time=01:00:00
set -euo pipefail
config=${1:?usage: sbatch --array=0-(N-1) slurm_array.sh EXPERIMENT.yaml [more dse flags]}
shift
shard="${SLURM_ARRAY_TASK_ID:?run as a Slurm array: sbatch --array=0-(N-1)}/${SLURM_ARRAY_TASK_COUNT}"
# --resume continues this shard's journal where an earlier attempt (a requeued or re-run task) left
# one, and starts fresh where there is none.
build/dse run "$config" "$@" --shard "$shard" --threads "${SLURM_CPUS_PER_TASK}" --resume -q
