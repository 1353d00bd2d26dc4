#!/usr/bin/env bash
# Regenerates the tables in docs/accelerator.md: fusion and padding results for every zoo model on
# tpu_v3_like, and tpu_v3_like's ResNet-50 and BERT throughput by batch size.
#   scripts/update_accelerator_doc.sh [path/to/dse]
set -euo pipefail
cd "$(dirname "$0")/.."
dse=${1:-build/dse}
config=configs/experiments/accel_tpu_v3.yaml
run() {  # MODEL BATCH FUSION [PADDING [DRAM ACCESS BYTES]]
  "$dse" run "$config" -p "workload.models=[{name: $1, batch: $2, dtype: bf16}]" -p "device.fusion=$3" \
    -p "device.padding=${4:-auto}" -p "device.dram.access_bytes=${5:-32}" -p output= --json -q
}
models=$("$dse" list model --json -q | python3 -c "import json,sys; print(' '.join(e['name'] for e in json.load(sys.stdin)['families']['model']['entries']))")
fusion_rows=()
for model in $models; do
  for fusion in none epilogue greedy exact; do
    fusion_rows+=("$model $fusion $(run "$model" 8 "$fusion" | python3 -c "import json,sys; d=json.load(sys.stdin); print(d['metrics']['latency_ms'], d['metrics']['dram_bytes'], int(d['metrics']['fusion_groups']))")")
  done
done
padding_rows=()
for model in $models; do
  for padding in "none 32" "array 32" "auto 32" "none 512" "auto 512"; do
    set -- $padding
    padding_rows+=("$model $1 $2 $(run "$model" 8 exact "$1" "$2" | python3 -c "import json,sys; d=json.load(sys.stdin); print(d['metrics']['latency_ms'], d['metrics']['dram_bytes'])")")
  done
done
ilp_rows=()
for model in resnet50 efficientnet_b0 mobilenet_v2 bert_base vit_b16; do
  for fusion in exact ilp; do
    ilp_rows+=("$model $fusion $(run "$model" 1 "$fusion" | python3 -c "import json,sys; d=json.load(sys.stdin); print(d['metrics']['latency_ms'], d['metrics']['dram_bytes'])")")
  done
done
throughput_rows=()
for spec in "resnet50 1" "resnet50 8" "resnet50 32" "resnet50 128" "bert_base 8" "bert_base 32" "bert_large 8" "bert_large 32"; do
  set -- $spec
  xla=$(run "$1" "$2" epilogue array | python3 -c "import json,sys; d=json.load(sys.stdin); print(d['metrics']['latency_ms'], d['metrics']['throughput_per_s'])")
  throughput_rows+=("$1 $2 $xla $(run "$1" "$2" exact | python3 -c "import json,sys; d=json.load(sys.stdin); print(d['metrics']['latency_ms'], d['metrics']['throughput_per_s'])")")
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
print("| model | batch | as XLA compiles (epilogue, padded): ms | inferences/s | dse exact + auto padding: ms | inferences/s |")
print("|---|---:|---:|---:|---:|---:|")
for line in sys.stdin:
    model, batch, xms, xips, ms, ips = line.split()
    print(f"| {model} | {batch} | {float(xms):.3f} | {float(xips):.0f} | {float(ms):.3f} | {float(ips):.0f} |")
' | python3 scripts/replace_doc_section.py docs/accelerator.md tpu_v3_throughput
printf '%s\n' "${padding_rows[@]}" | python3 -c '
import sys, math
rows = {}
for line in sys.stdin:
    model, padding, unit, ms, dram = line.split()
    rows.setdefault(model, {})[padding + unit] = (float(ms), float(dram))
print("| model | none ms | array ms | auto ms | DRAM MB: none / array / auto | auto vs array | 512 B units: none / auto ms |")
print("|---|---:|---:|---:|---|---:|---|")
gains, coarse = [], []
for model, r in rows.items():
    n, a, x, n5, x5 = r["none32"], r["array32"], r["auto32"], r["none512"], r["auto512"]
    gains.append(a[0] / x[0])
    coarse.append(n5[0] / x5[0])
    print(f"| {model} | {n[0]:.3f} | {a[0]:.3f} | {x[0]:.3f} | {n[1] / 1e6:.0f} / {a[1] / 1e6:.0f} / {x[1] / 1e6:.0f} | "
          f"{a[0] / x[0]:.2f}x | {n5[0]:.3f} / {x5[0]:.3f} |")
geo = lambda v: math.exp(sum(map(math.log, v)) / len(v))
print()
print(f"`auto` over always padding (`array`, what XLA does on TPUs), 32-byte units: geometric mean {geo(gains):.2f}x, "
      f"best {max(gains):.2f}x; `auto` over `none` with 512-byte units: geometric mean {geo(coarse):.2f}x, best {max(coarse):.2f}x.")
' | python3 scripts/replace_doc_section.py docs/accelerator.md padding_results
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
