#!/usr/bin/env bash
# A dse search as one MPI job over several nodes (docs/cluster.md, "One MPI job"): every rank runs the
# same strategy; rank 0 hands each batch's trials out as ranks ask and journals them, so trials of
# very different cost keep every rank busy and the search is the same as on one machine. Rank 0
# writes the outputs and prints each rank's load. Resubmit with --resume after a time limit or a
# node failure: no finished trial runs again.
#
#   sbatch configs/cluster/slurm_mpi.sh configs/experiments/fast_all.yaml
#   sbatch configs/cluster/slurm_mpi.sh configs/experiments/fast_all.yaml --resume
#
#SBATCH --job-name=dse-search
#SBATCH --nodes=4
#SBATCH --ntasks-per-node=1
#SBATCH --cpus-per-task=32
#SBATCH --time=02:00:00
set -euo pipefail
config=${1:?usage: sbatch slurm_mpi.sh EXPERIMENT.yaml [more dse flags]}
shift
# One rank per node, its cores as trial threads. For trials of microseconds on hundreds of ranks add
# --chunk 16 (docs/cluster.md, "How far it scales").
srun --mpi=pmix build/dse run "$config" --threads "${SLURM_CPUS_PER_TASK}" "$@"
