#!/usr/bin/env bash
# Regenerates the tables in docs/validation.md: the kernel timing model against the NeuSight kernel
# measurements, with the default calibration and leave-one-GPU-out.
#   scripts/update_validation_doc.sh [path/to/dse] [path/to/shared/reference]
set -euo pipefail
cd "$(dirname "$0")/.."
dse=${1:-build/dse}
ref=${2:-../shared/reference}/neusight
json=$("$dse" validate kernels "$ref"/test_linear.csv "$ref"/test_bmm.csv "$ref"/test_ln.csv "$ref"/test_softmax.csv \
        --leave-one-out --json -q)
e2e=$("$dse" validate e2e "$ref"/e2e_labels.csv --json -q)
gemm=$("$dse" validate gemm "$(dirname "$ref")"/llmcompass/a100_fp16_matmul.csv --json -q)
python3 - "$json" "$e2e" "$gemm" <<'PY' | python3 scripts/replace_doc_section.py docs/validation.md validation
import json, sys
d = json.loads(sys.argv[1])
e2e = json.loads(sys.argv[2])
gemm = json.loads(sys.argv[3])
def table(devices):
    ops = ["linear", "bmm", "ln", "softmax"]
    out = ["| GPU | " + " | ".join(f"{op} MAPE % (within ±20 %)" for op in ops) + " |",
           "|---|" + "---:|" * len(ops)]
    for dev in sorted(devices):
        cells = []
        for op in ops:
            s = devices[dev].get(op)
            cells.append(f"{s['mape_pct']:.1f} ({100 * s['within_20pct']:.0f} %)" if s else "—")
        out.append(f"| {dev} | " + " | ".join(cells) + " |")
    return "\n".join(out)
cal = d["calibration"]
body = ("**Default calibration** (fitted on all six GPUs):\n\n" + table(d["devices"]) +
        "\n\n**Leave one GPU out** (fitted on the other five, the sixth predicted from its datasheet):\n\n" +
        table(d["leave_one_out"]["devices"]) +
        "\n\nDefault parameters: " + ", ".join(f"`{k}` = {v:.4g}" for k, v in sorted(cal.items())) + ".")
clk = d["clocks_mhz"]
held = d["leave_one_out"]["clocks_mhz"]
crows = ["| GPU | base | boost | SGEMM | SGEMM held out | FP16 tensor-core GEMM |", "|---|---:|---:|---:|---:|---:|"]
for dev in sorted(clk):
    c = clk[dev]
    tensor = f"{c['fp16_tensor']:.0f}" if c["fp16_tensor"] is not None else "—"
    crows.append(f"| {dev} | {c['base']:.0f} | {c['boost']:.0f} | {c['sgemm']:.0f} | {held[dev]['sgemm']:.0f} | {tensor} |")
body += ("\n\n**Clocks the model gives each GPU**, MHz (default calibration; held out: the calibration fitted "
         "on the other five):\n\n" + "\n".join(crows))
fl = d["batch_scaling_floor"]
frows = ["| GPU | op | rows | floor % | dse % | dse held out % |", "|---|---|---:|---:|---:|---:|"]
for dev in sorted(fl["floor"]):
    for op in ["linear", "bmm", "ln", "softmax"]:
        if op not in fl["floor"][dev]:
            continue
        frows.append(f"| {dev} | {op} | {fl['floor'][dev][op]['rows']} | {fl['floor'][dev][op]['mape_pct']:.1f} | "
                     f"{fl['model'][dev][op]['mape_pct']:.1f} | {fl['held_out_model'][dev][op]['mape_pct']:.1f} |")
body += ("\n\n**Batch-scaling floor** (rows of at least 1 ms whose per-item shape was also measured at two or "
         "more other batch sizes; each shape at its best constant throughput: the error no model whose speed "
         "depends on the per-item shape alone can go below), beside dse's MAPE on the same rows:\n\n"
         + "\n".join(frows))
rows = ["| GPU | model, seq, batch | measured ms | predicted ms | error |", "|---|---|---:|---:|---:|"]
for r in e2e["rows"]:
    rows.append(f"| {r['gpu']} | {r['config']} | {r['measured_ms']:.1f} | {r['predicted_ms']:.1f} | {r['error_pct']:+.1f} % |")
body += ("\n\n**End to end** (`dse validate e2e`, FP32, kernel model with the default calibration; "
         f"\"-fusion\" rows after dse's fusion transforms): MAPE {e2e['mape_pct']:.1f} % over {len(e2e['rows'])} rows.\n\n"
         + "\n".join(rows))
body += (f"\n\n**FP16 tensor-core GEMMs** (`dse validate gemm`, LLMCompass's A100 80GB measurements, "
         f"{gemm['gpu']} spec, default calibration): MAPE {gemm['mape_pct']:.1f} %, "
         f"{100 * gemm['within_20pct']:.0f} % of {len(gemm['rows'])} rows within ±20 %.")
print(body)
PY
echo "docs/validation.md updated" >&2
