#!/usr/bin/env bash
# Beyond the BatchDVFS paper (docs/batch_dvfs.md): serving under a power cap AND a p99 latency SLO
# with open-loop arrivals. For each GPU (P40 fp32 at 150 W; H100 SXM5 and H200 fp16 at 300 W) and
# model (ResNet-50 with MLPerf's 15 ms server bound, BERT-base with its 130 ms), the capacity under
# cap and SLO is first measured (model_based governor, closed loop of 1,024 clients); then Poisson
# arrivals at half of it, and bursts (a two-state MMPP: 80 % of it and 20 %, 0.5 s mean each: the
# same mean) are served by each governor and by the best static (max batch, clock): an exhaustive grid search in
# simulation for the least energy per request whose p99 meets the SLO and whose every power
# reading keeps under the cap. One CSV row per run; the figures of docs/batch_dvfs.md (dse report)
# from the H200 ResNet-50 bursty runs of BatchDVFS and the model-based governor.
#   scripts/serving_slo_study.sh [path/to/dse] [out.csv]   (default build/dse, results/serving_slo_study.csv)
set -euo pipefail
cd "$(dirname "$0")/.."
dse=${1:-build/dse}
out=${2:-results/serving_slo_study.csv}
config=configs/experiments/serving_slo_power_cap.yaml
metrics="throughput_per_s goodput_per_s latency_p99_ms slo_violation_rate energy_per_inference_j power_avg_w power_peak_w periods_over_cap_share batch_mean sm_clock_mhz"
figures=results/serving_slo_figures
mkdir -p "$(dirname "$out")" "$figures" docs/img
echo "gpu,model,arrivals,mean_rate_per_s,cap_w,slo_ms,governor,${metrics// /,}" > "$out"
# Prints the metrics of `dse run --json` (a single run's, or a search's best trial's) as CSV fields.
fields() {
  python3 -c "
import json, sys
r = json.load(sys.stdin)
m = r['best']['metrics'] if 'best' in r and r['best'] else r.get('metrics')
print(','.join('%.6g' % m[k] if m and k in m else 'nan' for k in '$metrics'.split()))"
}
hopper_levels='[360, 540, 720, 900, 1080, 1260, 1440, 1620, 1800, 1980]'
p40_levels='[544, 632, 734, 835, 949, 1063, 1189, 1303, 1430, 1531]'
for gpu in p40 h100_sxm h200; do
  if [ "$gpu" = p40 ]; then dtype=fp32; cap=150; levels=$p40_levels; else dtype=fp16; cap=300; levels=$hopper_levels; fi
  for model in resnet50 bert_base; do
    slo=15; [ "$model" = bert_base ] && slo=130
    # The graph a serving engine runs (TensorRT under Triton): batch norm folded and epilogues fused
    # for ResNet-50; fused attention, epilogues and elementwise chains for BERT.
    transforms="[fold_batchnorm, fuse_epilogues]"
    [ "$model" = bert_base ] && transforms="[fuse_attention, fuse_epilogues, fuse_elementwise]"
    base=(-p "device.gpu=$gpu" -p "workload.models[0]={name: $model, dtype: $dtype, transforms: $transforms}" -p "workload.serving.clock_levels_mhz=$levels"
          -p "workload.serving.tenants[0].slo_ms=$slo" -p 'output=~' --json -q)
    capacity=$("$dse" run "$config" "${base[@]}" -p "workload.serving.tenants[0].arrivals={name: closed_loop, clients: 1024}" \
                 -p "workload.serving.governor={name: model_based, power_cap_w: $cap}" |
               python3 -c "import json,sys; print(json.load(sys.stdin)['metrics']['throughput_per_s'])")
    poisson=$(python3 -c "print(round(0.5 * $capacity, 1))")
    high=$(python3 -c "print(round(0.8 * $capacity, 1))")
    low=$(python3 -c "print(round(0.2 * $capacity, 1))")
    for arrivals in "poisson|{name: poisson, rate_per_s: $poisson}" \
                    "bursty|{name: bursty, high_rate_per_s: $high, high_mean_s: 0.5, low_rate_per_s: $low, low_mean_s: 0.5}"; do
      kind=${arrivals%%|*}; block=${arrivals#*|}
      run=("${base[@]}" -p "workload.serving.tenants[0].arrivals=$block")
      mid=$(python3 -c "l=$levels; print(l[len(l)//2])")
      for governor in "batch_dvfs|initial_clock_mhz: $mid" "clipper_power|" "dvfs_only|initial_clock_mhz: $mid" "model_based|"; do
        name=${governor%%|*}; keys=${governor#*|}
        # The runs docs/batch_dvfs.md draws keep their result files (H200, ResNet-50, bursts).
        keep=()
        case "$gpu-$model-$kind-$name" in
          h200-resnet50-bursty-batch_dvfs | h200-resnet50-bursty-model_based) keep=(-p "output=$figures/$name.h5") ;;
        esac
        echo "$gpu,$model,$kind,$poisson,$cap,$slo,$name,$("$dse" run "$config" "${run[@]}" "${keep[@]}" \
          -p "workload.serving.governor={name: $name, power_cap_w: $cap${keys:+, $keys}}" | fields)" >> "$out"
      done
      echo "$gpu,$model,$kind,$poisson,$cap,$slo,best_static,$("$dse" run "$config" "${run[@]}" \
        -p "workload.serving.governor={name: static, batch: 1, clock_mhz: $mid, power_cap_w: $cap}" \
        -p "search={space: {workload.serving.governor.batch: {choice: [1, 2, 4, 8, 16, 32, 64, 96, 128, 160, 192, 224, 255]},
                            workload.serving.governor.clock_mhz: {choice: $levels}},
                    objective: {minimize: energy_per_inference_j},
                    constraints: {power_peak_w: {le: $cap}, latency_p99_ms: {le: $slo}},
                    strategy: {name: grid, trials: 130, batch: 8, seed: 1}}" | fields)" >> "$out"
    done
  done
done
# docs/batch_dvfs.md's figures: BatchDVFS against the model-based governor on the H200 under bursts.
"$dse" report "$figures/batch_dvfs.h5" "$figures/model_based.h5" --compare --out "$figures/report" > /dev/null
cp "$figures/report/compare_latency_cdf.png" docs/img/serving_slo_h200_resnet50_bursty_latency_cdf.png
cp "$figures/report/compare_power.png" docs/img/serving_slo_h200_resnet50_bursty_power.png
# The table of docs/batch_dvfs.md (a generated section; DSE_DOCS_OUT=DIR writes it elsewhere).
python3 scripts/batch_dvfs_tables.py slo "$out" | python3 scripts/replace_doc_section.py docs/batch_dvfs.md serving_slo_study
echo "$out"
