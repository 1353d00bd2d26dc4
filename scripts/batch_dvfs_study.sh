#!/usr/bin/env bash
# The BatchDVFS study grid (docs/batch_dvfs.md): every configs/experiments/batch_dvfs_*.yaml model
# at power caps 80..250 W under each governor, one `dse run --json` each, and the best static
# (batch, clock) by grid search (configs/experiments/batch_dvfs_best_static.yaml) and by 50 trials of
# Bayesian optimisation (the paper's BOBD baseline); one CSV row per run.
#   scripts/batch_dvfs_study.sh [path/to/dse] [out.csv]   (default build/dse, results/batch_dvfs_study.csv)
set -euo pipefail
cd "$(dirname "$0")/.."
dse=${1:-build/dse}
out=${2:-results/batch_dvfs_study.csv}
mkdir -p "$(dirname "$out")"
echo "model,cap_w,governor,throughput_per_s,power_avg_w,power_peak_w,batch_mean,sm_clock_mhz,periods_over_cap_share,batches_over_cap_share" > "$out"
for config in configs/experiments/batch_dvfs_*.yaml; do
  model=$(basename "$config" .yaml); model=${model#batch_dvfs_}
  [ "$model" = best_static ] && continue  # the search below
  for cap in 80 100 125 150 175 200 250; do
    for governor in "batch_dvfs|initial_clock_mhz: 1063" "clipper_power|" "dvfs_only|initial_clock_mhz: 1063" \
                    "dvfs_only_b1|batch: 1, initial_clock_mhz: 1063" "model_based|"; do
      name=${governor%%|*}; keys=${governor#*|}
      block="{name: ${name%_b1}, power_cap_w: $cap${keys:+, $keys}}"
      "$dse" run "$config" -p "workload.serving.governor=$block" -p 'output=~' --json -q |
        python3 -c "import json,sys; m=json.load(sys.stdin)['metrics']; print(','.join(['$model','$cap','$name']+['%.6g' % m[k] for k in ['throughput_per_s','power_avg_w','power_peak_w','batch_mean','sm_clock_mhz','periods_over_cap_share','batches_over_cap_share']]))" >> "$out"
    done
    # The best static (batch, clock) under the cap: an exhaustive grid search in simulation.
    "$dse" run configs/experiments/batch_dvfs_best_static.yaml -p "workload.models[0].name=$model" \
      -p "workload.serving.governor.power_cap_w=$cap" -p "search.constraints={power_peak_w: {le: $cap}}" \
      -p 'output=~' --json -q |
      python3 -c "import json,sys; b=json.load(sys.stdin)['best']; m=b['metrics'] if b else None; print(','.join(['$model','$cap','best_static']+(['%.6g' % m[k] for k in ['throughput_per_s','power_avg_w','power_peak_w','batch_mean','sm_clock_mhz','periods_over_cap_share','batches_over_cap_share']] if m else ['nan']*7)))" >> "$out"
    # BOBD (the paper's Bayesian-optimisation baseline): the same space searched by the bayes_opt
    # strategy with 50 trials, one at a time, as an offline tuner measuring on the GPU would.
    "$dse" run configs/experiments/batch_dvfs_best_static.yaml -p "workload.models[0].name=$model" \
      -p "workload.serving.governor.power_cap_w=$cap" -p "search.constraints={power_peak_w: {le: $cap}}" \
      -p 'search.strategy={name: bayes_opt, trials: 50, batch: 1, seed: 1}' -p 'output=~' --json -q |
      python3 -c "import json,sys; b=json.load(sys.stdin)['best']; m=b['metrics'] if b else None; print(','.join(['$model','$cap','bobd']+(['%.6g' % m[k] for k in ['throughput_per_s','power_avg_w','power_peak_w','batch_mean','sm_clock_mhz','periods_over_cap_share','batches_over_cap_share']] if m else ['nan']*7)))" >> "$out"
  done
done
# The table of docs/batch_dvfs.md (a generated section; DSE_DOCS_OUT=DIR writes it elsewhere).
python3 scripts/batch_dvfs_tables.py study "$out" | python3 scripts/replace_doc_section.py docs/batch_dvfs.md batch_dvfs_study
echo "$out"
