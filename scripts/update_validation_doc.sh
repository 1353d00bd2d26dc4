#!/usr/bin/env bash
# Regenerates the tables in docs/validation.md: the kernel timing model against the NeuSight kernel
# measurements, with the default calibration and leave-one-GPU-out, and its figures (dse report on
# the run's result file, results/validation_kernels.h5, copied to docs/img/validation_*.png).
#   scripts/update_validation_doc.sh [path/to/dse] [path/to/reference/data]
# (the data defaults to tests/data, copied into the repository; tests/data/README.md cites it)
set -euo pipefail
cd "$(dirname "$0")/.."
dse=${1:-build/dse}
ref=${2:-tests/data}/neusight
json=$("$dse" validate kernels "$ref"/test_linear.csv "$ref"/test_bmm.csv "$ref"/test_ln.csv "$ref"/test_softmax.csv \
        --leave-one-out --json -q --output results/validation_kernels.h5)
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
fl, af = d["batch_scaling_floor"], d["affine_floor"]
frows = ["| GPU | op | rows ≥ 1 ms | batch-scaling floor % | dse % | dse held out % "
         "| rows | fixed + per-item floor % | dse % | dse held out % |",
         "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
def floor_cells(f, dev, op):
    if op not in f["floor"].get(dev, {}):
        return "— | — | — | —"
    return (f"{f['floor'][dev][op]['rows']} | {f['floor'][dev][op]['mape_pct']:.1f} | "
            f"{f['model'][dev][op]['mape_pct']:.1f} | {f['held_out_model'][dev][op]['mape_pct']:.1f}")
for dev in sorted(set(fl["floor"]) | set(af["floor"])):
    for op in ["linear", "bmm", "ln", "softmax"]:
        if op in fl["floor"].get(dev, {}) or op in af["floor"].get(dev, {}):
            frows.append(f"| {dev} | {op} | {floor_cells(fl, dev, op)} | {floor_cells(af, dev, op)} |")
body += ("\n\n**Floors of the measurements' own scatter**, beside dse's MAPE on the same rows. Both take the "
         "rows whose per-item shape was also measured at two or more other batch sizes. The *batch-scaling "
         "floor* keeps rows of at least 1 ms and gives each shape its best constant throughput: no model whose "
         "speed depends on the per-item shape alone goes below it. The *fixed + per-item floor* keeps every such "
         "row, short ones too, and gives each shape its best latency = a + b × items (batch; rows for linear; a, b ≥ 0, chosen per shape "
         "with hindsight): no model whose time for a shape is a fixed cost plus a per-item cost goes below it.\n\n"
         + "\n".join(frows))
cs, cs_held = d["clock_states"]["model"], d["clock_states"]["held_out_model"]
crows = ["| GPU | op | rows held below boost | nearer boost | dse % | either state % | control % "
         "| shapes in both | dse held out % | either state, held out % |",
         "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
for dev in sorted(cs):
    for op in ["linear", "bmm", "ln", "softmax"]:
        if op not in cs[dev]:
            continue
        c, h = cs[dev][op], cs_held.get(dev, {}).get(op)
        held_cells = f"{h['model_mape_pct']:.1f} | {h['either_state_mape_pct']:.1f}" if h else "— | —"
        crows.append(f"| {dev} | {op} | {c['held_rows']} | {c['nearer_boost']} | {c['model_mape_pct']:.1f} | "
                     f"{c['either_state_mape_pct']:.1f} | {c['control_mape_pct']:.1f} | "
                     f"{c['shapes_in_both']} of {c['shapes']} | {held_cells} |")
body += ("\n\n**Clock states** (default calibration; held out: the calibration fitted on the other five): the rows "
         "whose kernels dse holds below the boost clock, each also predicted with its kernels at the boost clock. "
         "*Either state* keeps the nearer of the two predictions (the harness recorded no clock: an oracle on that "
         "state); *control* offers a state as much slower instead (clock² / boost), since any second choice lowers an "
         "oracle's error; *shapes in both*: per-item shapes with three or more such rows, and those with rows nearer "
         "each state.\n\n" + "\n".join(crows))
tc = d["tile_choice"]
trows = ["| GPU | op | rows | dse's tile % | measured tile % |", "|---|---|---:|---:|---:|"]
for dev in sorted(tc["dse_tile"]):
    for op in ["linear", "bmm"]:
        if op in tc["dse_tile"][dev]:
            trows.append(f"| {dev} | {op} | {tc['dse_tile'][dev][op]['rows']} | {tc['dse_tile'][dev][op]['mape_pct']:.1f} | "
                         f"{tc['measured_tile'][dev][op]['mape_pct']:.1f} |")
body += ("\n\n**Tile choice against kernel time** (default calibration): the GEMM rows whose measured kernel's tile "
         "dse's table holds, predicted on the tile dse picks (as it predicts) and on the measured one, with the measured "
         "split (`measured_tile_predicted_ms` in `--predictions`). The difference is the tile choice's error; what is "
         "left is the kernel time's.\n\n" + "\n".join(trows))
rows = ["| GPU | model, seq, batch | measured ms | predicted ms | error |", "|---|---|---:|---:|---:|"]
for r in e2e["rows"]:
    rows.append(f"| {r['gpu']} | {r['config']} | {r['measured_ms']:.1f} | {r['predicted_ms']:.1f} | {r['error_pct']:+.1f} % |")
body += ("\n\n**End to end** (`dse validate e2e`, FP32, kernel model with the default calibration; "
         f"\"-fusion\" rows after dse's fusion transforms, training rows' forward passes with the training model "
         f"and its dropouts): MAPE {e2e['mape_pct']:.1f} % over {len(e2e['rows'])} rows.\n\n"
         + "\n".join(rows))
body += (f"\n\n**FP16 tensor-core GEMMs** (`dse validate gemm`, LLMCompass's A100 80GB measurements, "
         f"{gemm['gpu']} spec, default calibration): MAPE {gemm['mape_pct']:.1f} %, "
         f"{100 * gemm['within_20pct']:.0f} % of {len(gemm['rows'])} rows within ±20 %.")
print(body)
PY
echo "docs/validation.md updated" >&2
mkdir -p docs/img
"$dse" report results/validation_kernels.h5 --out results/validation_report > /dev/null
cp results/validation_report/predicted_vs_measured.png docs/img/validation_kernels_predicted_vs_measured.png
cp results/validation_report/error_by_op_gpu.png docs/img/validation_kernels_error_by_op_gpu.png
# The H200 measured here (results/device/h200, scripts/device/measure_kernels.py): NeuSight's shapes
# on a GPU no fit has seen, timed as NeuSight's collector times them, and the same shapes timed in a
# back-to-back loop (loop_timed/), which hides the launch gap of a single timed op.
h200=results/device/h200
single=$("$dse" validate kernels "$h200"/test_linear.csv "$h200"/test_bmm.csv "$h200"/test_ln.csv "$h200"/test_softmax.csv --json -q)
loop=$("$dse" validate kernels "$h200"/loop_timed/test_{linear,bmm,ln,softmax}.csv --json -q)
python3 - "$single" "$loop" <<'PY' | python3 scripts/replace_doc_section.py docs/validation.md h200
import json, sys
single, loop = (json.loads(a)["devices"]["h200"] for a in sys.argv[1:3])
rows = ["| op | rows | MAPE % (within ±20 %), NeuSight's timing | MAPE % (within ±20 %), back-to-back loop |",
        "|---|---:|---:|---:|"]
for op in ("linear", "bmm", "ln", "softmax"):
    s, l = single[op], loop[op]
    rows.append(f"| {op} | {s['rows']} | {s['mape_pct']:.1f} ({100 * s['within_20pct']:.0f} %) | "
                f"{l['mape_pct']:.1f} ({100 * l['within_20pct']:.0f} %) |")
print("\n".join(rows))
PY
# NeuSight's per-op labels: each linear, bmm, layer norm and softmax node of its models' traces on
# eight NVIDIA GPUs, two of them (the H100 SXM and the A100 80GB PCIe) in no fit
# (tests/data/neusight/model_ops, scripts/neusight_model_ops.py).
ops=$("$dse" validate kernels "$ref"/model_ops/*_gemm.csv "$ref"/model_ops/*_rows.csv --json -q)
python3 - "$ops" "$ref" "$json" <<'PY' | python3 scripts/replace_doc_section.py docs/validation.md model_ops
import csv, glob, json, re, statistics, sys
devices = json.loads(sys.argv[1])["devices"]
ref = sys.argv[2]
fitted = set(json.loads(sys.argv[3])["devices"])  # the GPUs of the kernel files, which the defaults are fitted to
# Each spec's torch.cuda.get_device_name() strings (configs/hardware/gpu/*.yaml: device_names).
names = {}
for path in glob.glob("configs/hardware/gpu/*.yaml"):
    text = open(path).read()
    spec = re.search(r"^name: *(\S+)", text, re.M).group(1)
    listed = re.search(r"^device_names: *\[(.*?)\]", text, re.M)
    for device in re.findall(r'"([^"]+)"', listed.group(1) if listed else ""):
        names[device] = spec
# The same linear shapes in NeuSight's kernel collection (test_linear.csv) on the same GPU: the
# median of trace time over kernel time says whether the two collections timed the GPU alike.
kernel_ms = {}
for r in csv.DictReader(open(f"{ref}/test_linear.csv")):
    kernel_ms.setdefault((r["Device"], int(r["B"]) * int(r["M"]), int(r["N"]), int(r["K"])), []).append(float(r["Latency"]))
same = {}
for path in glob.glob(f"{ref}/model_ops/*_gemm.csv"):
    for r in csv.DictReader(open(path)):
        key = (r["Device"], int(r["B"]) * int(r["M"]), int(r["N"]), int(r["K"]))
        if r["OPName"] == "linear" and key in kernel_ms:
            same.setdefault(r["Device"], []).append(float(r["Latency"]) / statistics.mean(kernel_ms[key]))
ratio = {names[d]: (len(v), statistics.median(v)) for d, v in same.items() if d in names}
ops = ["linear", "bmm", "ln", "softmax"]
rows = ["| GPU | " + " | ".join(f"{op}: rows, MAPE % (within ±20 %)" for op in ops) +
        " | linear shapes also in test_linear: rows, median trace / kernel time |", "|---|" + "---:|" * (len(ops) + 1)]
for dev in sorted(devices, key=lambda d: (d in fitted, d)):
    cells = []
    for op in ops:
        s = devices[dev].get(op)
        cells.append(f"{s['rows']}, {s['mape_pct']:.1f} ({100 * s['within_20pct']:.0f} %)" if s else "—")
    cells.append(f"{ratio[dev][0]}, {ratio[dev][1]:.2f}" if dev in ratio else "—")
    rows.append(f"| {dev}{'' if dev in fitted else ' (in no fit)'} | " + " | ".join(cells) + " |")
print("\n".join(rows))
PY
# The same traces' whole-model latencies on the two GPUs no fit has seen (model_ops/e2e_labels.csv).
e2e_unseen=$("$dse" validate e2e "$ref"/model_ops/e2e_labels.csv --json -q)
python3 - "$e2e_unseen" <<'PY' | python3 scripts/replace_doc_section.py docs/validation.md model_ops_e2e
import json, statistics, sys
d = json.loads(sys.argv[1])
groups = {}
for r in d["rows"]:
    mode = "training (forward pass)" if r["measured"] == "fw_latency_ms" else "inference"
    groups.setdefault((r["gpu"], mode), []).append(r["error_pct"])
rows = ["| GPU | rows | MAPE % | mean error % | range % |", "|---|---:|---:|---:|---:|"]
for (gpu, mode), errors in sorted(groups.items()):
    rows.append(f"| {gpu}, {mode} | {len(errors)} | {statistics.mean(abs(e) for e in errors):.1f} | "
                f"{statistics.mean(errors):+.1f} | {min(errors):+.1f} to {max(errors):+.1f} |")
print("\n".join(rows))
print(f"\n{len(d['skipped'])} rows skipped (runs across four GPUs: data, tensor or pipeline parallel).")
PY
# NeuSight's training convolutions (train_conv.csv: FP32 3 x 3 stride-1 nn.Conv2d, no fit reads them):
# dse's MAPE per GPU, on the rows of at least 3 ms, and what a fixed cost per timed convolution call
# beyond the harness floor would leave, set on the other four GPUs (the median of their best).
conv_predictions=$(mktemp)
trap 'rm -f "$conv_predictions"' EXIT
conv=$("$dse" validate kernels "$ref"/train_conv.csv --json -q --predictions "$conv_predictions")
python3 - "$conv" "$conv_predictions" <<'PY' | python3 scripts/replace_doc_section.py docs/validation.md conv
import csv, json, statistics, sys
devices = json.loads(sys.argv[1])["devices"]
rows = {}
for r in csv.DictReader(open(sys.argv[2])):
    rows.setdefault(r["device"], []).append((float(r["measured_ms"]), float(r["predicted_ms"])))
mape = lambda pairs, extra=0.0: 100 * statistics.mean(abs(p + extra - m) / m for m, p in pairs)
grid = [i * 0.005 for i in range(101)]  # 0 to 0.5 ms
best = {d: min(grid, key=lambda a: mape(v, a)) for d, v in rows.items()}
out = ["| GPU | rows | MAPE % (within ±20 %) | rows ≥ 3 ms: rows, MAPE %, median error % | "
       "with a fixed cost per call set on the other four GPUs: ms, MAPE % |", "|---|---:|---:|---:|---:|"]
for d in sorted(rows):
    s = devices[d]["conv2d"]
    long_rows = [(m, p) for m, p in rows[d] if m >= 3]
    median = 100 * statistics.median(p / m - 1 for m, p in long_rows)
    others = statistics.median(best[o] for o in best if o != d)
    out.append(f"| {d} | {s['rows']} | {s['mape_pct']:.1f} ({100 * s['within_20pct']:.0f} %) | "
               f"{len(long_rows)}, {mape(long_rows):.1f}, {median:+.1f} | {others:.3f}, {mape(rows[d], others):.1f} |")
print("\n".join(out))
PY
