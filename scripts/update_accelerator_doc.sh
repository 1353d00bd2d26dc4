#!/usr/bin/env bash
# Regenerates the tables in docs/accelerator.md: fusion results for every zoo model on tpu_v3_like,
# and tpu_v3_like's ResNet-50 and BERT throughput by batch size.
#   scripts/update_accelerator_doc.sh [path/to/dse]
set -euo pipefail
cd "$(dirname "$0")/.."
dse=${1:-build/dse}
config=configs/experiments/accel_tpu_v3.yaml
run() {  # MODEL BATCH FUSION [extra model keys]
  "$dse" run "$config" -p "workload.models=[{name: $1, batch: $2, dtype: bf16${4:-}}]" -p "device.fusion=$3" -p output= --json -q
}
models=$("$dse" list model --json -q | python3 -c "import json,sys; print(' '.join(e['name'] for e in json.load(sys.stdin)['families']['model']['entries']))")
fusion_rows=()
for model in $models; do
  for fusion in none epilogue greedy exact; do
    fusion_rows+=("$model $fusion $(run "$model" 8 "$fusion" | python3 -c "import json,sys; d=json.load(sys.stdin); print(d['latency_ms'], d['accelerator']['dram_bytes'], d['accelerator']['fusion_groups'])")")
  done
done
ilp_rows=()
for model in resnet50 efficientnet_b0 mobilenet_v2 bert_base vit_b16; do
  for fusion in exact ilp; do
    ilp_rows+=("$model $fusion $(run "$model" 1 "$fusion" | python3 -c "import json,sys; d=json.load(sys.stdin); print(d['latency_ms'], d['accelerator']['dram_bytes'])")")
  done
done
throughput_rows=()
for spec in "resnet50 1" "resnet50 8" "resnet50 32" "resnet50 128" "bert_base 8" "bert_base 32" "bert_large 8" "bert_large 32"; do
  set -- $spec
  throughput_rows+=("$1 $2 $(run "$1" "$2" exact | python3 -c "import json,sys; d=json.load(sys.stdin); print(d['latency_ms'], d['throughput_per_s'])")")
done
printf '%s\n' "${fusion_rows[@]}" | python3 -c '
import sys
rows = {}
for line in sys.stdin:
    model, fusion, ms, dram, groups = line.split()
    rows.setdefault(model, {})[fusion] = (float(ms), float(dram), int(groups))
print("| model | no fusion ms | epilogue ms | greedy ms | exact ms | exact vs epilogue | DRAM MB: none / epilogue / exact | DRAM saved vs none |")
print("|---|---:|---:|---:|---:|---:|---|---:|")
gains = []
for model, r in rows.items():
    n, e, g, x = r["none"], r["epilogue"], r["greedy"], r["exact"]
    gains.append(e[0] / x[0])
    print(f"| {model} | {n[0]:.3f} | {e[0]:.3f} | {g[0]:.3f} | {x[0]:.3f} | {e[0] / x[0]:.2f}x | "
          f"{n[1] / 1e6:.0f} / {e[1] / 1e6:.0f} / {x[1] / 1e6:.0f} | {100 * (1 - x[1] / n[1]):.0f} % |")
import math
print()
print(f"Exact fusion over the epilogue (XLA-like) plan: geometric mean {math.exp(sum(map(math.log, gains)) / len(gains)):.2f}x, "
      f"best {max(gains):.2f}x, over {len(gains)} models.")
' | python3 scripts/replace_doc_section.py docs/accelerator.md fusion_results
printf '%s\n' "${throughput_rows[@]}" | python3 -c '
import sys
print("| model | batch | latency ms | inferences/s |")
print("|---|---:|---:|---:|")
for line in sys.stdin:
    model, batch, ms, ips = line.split()
    print(f"| {model} | {batch} | {float(ms):.3f} | {float(ips):.0f} |")
' | python3 scripts/replace_doc_section.py docs/accelerator.md tpu_v3_throughput
printf '%s\n' "${ilp_rows[@]}" | python3 -c '
import sys
rows = {}
for line in sys.stdin:
    model, fusion, ms, dram = line.split()
    rows.setdefault(model, {})[fusion] = (float(ms), float(dram))
print("| model (batch 1) | exact ms | ilp ms | ilp vs exact | DRAM MB: exact / ilp |")
print("|---|---:|---:|---:|---|")
for model, r in rows.items():
    x, i = r["exact"], r["ilp"]
    print(f"| {model} | {x[0]:.4f} | {i[0]:.4f} | {x[0] / i[0]:.3f}x | {x[1] / 1e6:.1f} / {i[1] / 1e6:.1f} |")
' | python3 scripts/replace_doc_section.py docs/accelerator.md fusion_ilp
