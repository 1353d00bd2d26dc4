#!/usr/bin/env bash
# A dse search over several nodes with Slurm and OpenMPI: every rank runs the same strategy, simulates
# its share of each batch on its own cores (TBB) and exchanges results, so the search is the same as on
# one machine (docs/search.md, "On a cluster"). Rank 0 writes the journal and the outputs; resubmit
# with --resume after a time limit or a node failure.
#
#   sbatch configs/cluster/slurm_search.sh configs/experiments/fast_all.yaml
#
#SBATCH --job-name=dse-search
#SBATCH --nodes=4
#SBATCH --ntasks-per-node=1
#SBATCH --cpus-per-task=32
#SBATCH --time=02:00:00
set -euo pipefail
config=${1:?usage: sbatch slurm_search.sh EXPERIMENT.yaml [more dse flags]}
shift
# Make batches a multiple of the rank count so no rank idles: -p search.strategy.batch=...
srun --mpi=pmix build/dse run "$config" --threads "${SLURM_CPUS_PER_TASK}" "$@"
