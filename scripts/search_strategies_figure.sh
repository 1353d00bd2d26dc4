#!/usr/bin/env bash
# docs/search.md's figure: the best throughput found so far against trials for each strategy on
# configs/experiments/search_gpu_batch.yaml (45 points, budget 45, batches of 4, seed 1), drawn by
# `dse report --compare` from the searches' result files (results/search_strategies/).
#   scripts/search_strategies_figure.sh [path/to/dse]
set -euo pipefail
cd "$(dirname "$0")/.."
dse=${1:-build/dse}
out=results/search_strategies
mkdir -p "$out" docs/img
files=()
for strategy in random latin_hypercube aging_evolution nsga2 bayes_opt; do
  "$dse" run configs/experiments/search_gpu_batch.yaml --force -q -p "output=$out/$strategy.h5" \
    -p "search.strategy={name: $strategy, trials: 45, batch: 4, seed: 1}" > /dev/null
  files+=("$out/$strategy.h5")
done
"$dse" report "${files[@]}" --compare --out "$out/report" > /dev/null
cp "$out/report/compare_convergence.png" docs/img/search_strategies_convergence.png
echo docs/img/search_strategies_convergence.png
