#!/usr/bin/env bash
# Regenerates the tables in docs/power.md: the GPU power model against published GEMM measurements
# (tests/data/public), an H100 pass under a sweep of power limits, a pass with a clock per firmware
# window (and its figure, from results/power_window_llm.h5), and the accelerator template's Perf/TDP
# against its clock.
#   scripts/update_power_doc.sh [path/to/dse]
set -euo pipefail
cd "$(dirname "$0")/.."
dse=${1:-build/dse}
public=tests/data/public
gemm() {  # FILE GPU DTYPE [TIMING] (FILE under tests/data/public, or a path): a loop of launches unless
  local file=$1  # TIMING is "alone" (each GEMM timed on its own between two events)
  [ -e "$file" ] || file=$public/$1
  local timing=(--back-to-back)
  [ "${4:-loop}" = alone ] && timing=()
  "$dse" validate gemm "$file" --gpu "$2" --dtype "$3" "${timing[@]}" --json -q
}
# The H200 measured here (results/device/h200, scripts/device/measure_power_and_kernels.sh): each
# 20 s hold as one row for the model (its steady rate), and the device-to-device copy as NeuSight's
# addu over 2^29 floats (2 GiB read, 2 GiB written).
device=results/device/h200
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 - "$device/summary.json" "$tmp" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
n = 8192
for dtype in ("fp32", "fp16"):
    ms = 2 * n**3 / (s[f"hold_{dtype}"]["rate_median"] * 1e12) * 1e3
    open(f"{sys.argv[2]}/hold_{dtype}.csv", "w").write(f"{n}, {n}, {n}, {ms:.6f}ms\n")
ms = 2 * 2**31 / (s["hold_stream"]["rate_median"] * 1e9) * 1e3
open(f"{sys.argv[2]}/stream.csv", "w").write(
    "OPName,Latency,Device,Kernel Name,Grid x,Grid y,Grid z,Block x,Block y,Block z,B,H\n"
    f"addu,{ms:.6f},NVIDIA H200,copy,1,1,1,1,1,1,262144,2048\n")
PY
"$dse" validate kernels "$tmp/stream.csv" --predictions "$tmp/stream_predictions.csv" -q > /dev/null
limits=()
for limit in 700 500 350 250 200 150; do
  limits+=("$limit $("$dse" run configs/experiments/quickstart.yaml -p device.gpu=h100_sxm -p 'workload.models[0].batch=64' \
    -p device.power_limit_w=$limit -p output= --json -q | python3 -c "import json,sys; d=json.load(sys.stdin); m=d['metrics']; print(m['sm_clock_mhz'], m['latency_ms'], m['power_avg_w'], m['power_peak_w'], m['energy_per_inference_j'])")")
done
clocks=()
for clock in 470 705 940 1175 1400; do
  # The best design of configs/experiments/coopt_accel_batch_clock.yaml (docs/search.md) at each clock.
  clocks+=("$clock $("$dse" run configs/experiments/accel_tpu_v3.yaml -p 'workload.models=[{name: resnet50, batch: 16, dtype: bf16}]' \
    -p device.fusion=exact -p device.cores.x=8 -p device.cores.y=1 -p device.array.rows=128 -p device.array.cols=64 \
    -p device.l1_kib=2048 -p device.dram.bandwidth_gbps=600 -p device.clock_mhz=$clock -p output= --json -q | python3 -c "import json,sys; m=json.load(sys.stdin)['metrics']; print(m['supply_v'], m['latency_ms'], m['tdp_w'], m['static_w'], m['perf_per_tdp'], m['energy_per_inference_j'])")")
done
# ResNet-50 FP16 on the H200 as dse runs it (the quickstart) at the batches measured there.
resnet=()
for batch in 8 64 256; do
  resnet+=("$batch $("$dse" run configs/experiments/quickstart.yaml -p "workload.models[0].batch=$batch" -p output= --json -q | \
    python3 -c "import json,sys; m=json.load(sys.stdin)['metrics']; print(m['latency_ms'], m['sm_clock_mhz'], m['power_avg_w'])")")
done
p40=()
for clock in 1063 1303 1531; do
  for model in resnet_v2_50 inception_v3 mobilenet_v1; do
    p40+=("$clock $model $("$dse" run configs/experiments/quickstart.yaml -p device.gpu=p40 -p "workload.models=[{name: $model, batch: 64, dtype: fp32}]" \
      -p device.sm_clock_mhz=$clock -p output= --json -q | python3 -c "import json,sys; print(json.load(sys.stdin)['metrics']['power_avg_w'])")")
  done
done
# GPT-2 XL prefill then decode on an H100 held to 350 W: a clock per 5 ms window (the config's; it
# writes the committed result file the figure is drawn from), or one for the pass (a 1 s window).
windows=("$("$dse" run configs/experiments/power_window_llm.yaml --json -q)"
         "$("$dse" run configs/experiments/power_window_llm.yaml -p device.power_window_ms=1000 -p output= --json -q)")
"$dse" report results/power_window_llm.h5 --out results/power_window_llm_report > /dev/null
mkdir -p docs/img
cp results/power_window_llm_report/timeline.png docs/img/power_window_llm_timeline.png
python3 - "$(gemm h100_sxm_sgemm.csv h100_sxm fp32)" "$(gemm h100_sxm_torch_fp32.csv h100_sxm fp32)" \
  "$(gemm h100_sxm_torch_fp16.csv h100_sxm fp16)" "$(gemm v100_sxm2_torch_fp32.csv v100_sxm2 fp32)" \
  "$(gemm v100_sxm2_torch_fp16.csv v100_sxm2 fp16)" "$(printf '%s\n' "${limits[@]}")" "$(printf '%s\n' "${clocks[@]}")" "$(printf '%s\n' "${p40[@]}")" \
  "${windows[0]}" "${windows[1]}" "$(gemm $device/gemm_fp32.csv h200 fp32 alone)" "$(gemm $device/gemm_fp16.csv h200 fp16 alone)" \
  "$(gemm "$tmp/hold_fp32.csv" h200 fp32)" "$(gemm "$tmp/hold_fp16.csv" h200 fp16)" "$tmp/stream_predictions.csv" \
  "$device/summary.json" "$(sed -n 's/^idle_w: *\([0-9.]*\).*/\1/p' configs/hardware/gpu/h200.yaml)" "$(printf '%s\n' "${resnet[@]}")" \
  "$(gemm t4_cublas_fp16.csv t4 fp16)" "$(gemm p100_pcie_torch_fp32.csv p100_pcie fp32)" \
  "$(gemm p4_torch_fp32.csv p4 fp32)" "$(gemm l4_torch_fp32.csv l4 fp32)" "$(gemm l4_torch_fp16.csv l4 fp16)" \
  "$(gemm rtx_a6000_cublas_sgemm.csv rtx_a6000 fp32)" "$(gemm a40_torch_fp32.csv a40 fp32)" \
  "$(gemm a40_torch_fp16.csv a40 fp16)" <<'PY' |
import json, sys
sets = [("H100 SXM5, cuBLAS SGEMM (gpu-fryer #4; sets the Hopper figures)", sys.argv[1]),
        ("H100 SXM5, PyTorch FP32 matmul (torch-performance-test-data #79)", sys.argv[2]),
        ("H100 SXM5, PyTorch FP16 matmul (#79)", sys.argv[3]),
        ("V100 SXM2 16GB, PyTorch FP32 matmul (#140)", sys.argv[4]),
        ("V100 SXM2 16GB, PyTorch FP16 matmul (#140)", sys.argv[5]),
        ("H200, cuBLAS SGEMM, measured here (results/device/h200; 20 timed runs each)", sys.argv[11]),
        ("H200, cuBLAS FP16 GEMM, measured here (20 timed runs each: shorter than the firmware's reaction)", sys.argv[12]),
        ("T4, cuBLAS FP16 GEMM, 100 runs back to back (NVIDIA forum 264462: \"about 24T\", power-capped at 70 W)",
         sys.argv[19]),
        ("P100 PCIe, PyTorch FP32 matmul (torch-performance-test-data #174)", sys.argv[20]),
        ("P4, PyTorch FP32 matmul (#9)", sys.argv[21]),
        ("L4, PyTorch FP32 matmul (#120)", sys.argv[22]),
        ("L4, PyTorch FP16 matmul (#120)", sys.argv[23]),
        ("RTX A6000, cuBLAS SGEMM, 50 runs back to back (siboehm/SGEMM_CUDA)", sys.argv[24]),
        ("A40, PyTorch FP32 matmul (#185; in no fit)", sys.argv[25]),
        ("A40, PyTorch FP16 matmul (#185; in no fit)", sys.argv[26])]
rows = ["| measurement | N | measured TFLOPS | predicted TFLOPS | time error | clock MHz | board W |",
        "|---|---:|---:|---:|---:|---:|---:|"]
for title, text in sets:
    d = json.loads(text)
    for r in d["rows"]:
        flops = 2 * r["m"] * r["n"] * r["k"]
        rows.append(f"| {title} | {r['n']} | {flops / r['measured_ms'] / 1e9:.1f} | {flops / r['predicted_ms'] / 1e9:.1f} "
                    f"| {r['error_pct']:+.1f} % | {r['clock_mhz']:.0f} | {r['power_w']:.0f} |")
body = "**Published GEMMs** (`dse validate gemm --back-to-back`: these are loops of launches, which pay no " \
       "harness floor; the H200's cuBLAS rows, each GEMM timed on its own between two events, without it: the " \
       "floor of a single timed PyTorch op is added there):\n\n" + "\n".join(rows)
lrows = ["| power limit W | SM clock MHz | latency ms | average W | peak W (1 ms) | mJ per image |",
         "|---:|---:|---:|---:|---:|---:|"]
for line in sys.argv[6].splitlines():
    limit, clock, latency, avg, peak, energy = map(float, line.split())
    lrows.append(f"| {limit:.0f} | {clock:.0f} | {latency:.3f} | {avg:.1f} | {peak:.1f} | {1e3 * energy:.2f} |")
body += ("\n\n**ResNet-50, batch 64, FP16 on the H100 SXM5 under power limits** (`dse run "
         "configs/experiments/quickstart.yaml -p device.gpu=h100_sxm -p 'workload.models[0].batch=64' -p "
         "device.power_limit_w=W`; 150 W is below the 200 W nvidia-smi accepts, a what-if):\n\n" + "\n".join(lrows))
crows = ["| clock MHz | V | latency ms | TDP W | static W | inferences/s per TDP W | mJ per inference |",
         "|---:|---:|---:|---:|---:|---:|---:|"]
for line in sys.argv[7].splitlines():
    clock, volts, latency, tdp, static, ppt, energy = map(float, line.split())
    crows.append(f"| {clock:.0f} | {volts:.3f} | {latency:.3f} | {tdp:.1f} | {static:.1f} | {ppt:.2f} | {1e3 * energy:.2f} |")
body += ("\n\n**The accelerator template's clock** (the best design of coopt_accel_batch_clock.yaml, ResNet-50 "
         "batch 16 bf16, at each clock):\n\n" + "\n".join(crows))
# The BatchDVFS paper's P40 runs (tests/data/batchdvfs): nvidia-smi samples once a second.
import csv, glob, statistics
busy, idle = {}, {}
for path in sorted(glob.glob("tests/data/batchdvfs/*/nvidia-smi/*.csv")):
    with open(path) as f:
        for row in csv.DictReader(f, skipinitialspace=True):
            if not (row["timestamp"] or "")[:1].isdigit():
                continue  # the files end with summary rows (min, max, average, ...)
            util = float(row["utilization.gpu [%]"].split()[0])
            watts = float(row["power.draw [W]"].split()[0])
            clock = float(row["clocks.current.sm [MHz]"].split()[0])
            (busy if util >= 90 else idle if util == 0 else {}).setdefault(clock, []).append(watts)
predicted = {}
for line in sys.argv[8].splitlines():
    clock, model, watts = line.split()
    predicted.setdefault(float(clock), {})[model] = float(watts)
prow = ["| SM clock MHz | samples at >= 90 % utilization | measured W (median) | samples at 0 % | measured idle W (median) "
        "| dse: resnet_v2_50 | inception_v3 | mobilenet_v1 (batch 64, FP32, pass average W) |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|"]
for clock in sorted(predicted):
    b, i, p = busy.get(clock, []), idle.get(clock, []), predicted[clock]
    prow.append(f"| {clock:.0f} | {len(b)} | {statistics.median(b):.0f} | {len(i)} | {statistics.median(i):.0f} | "
                f"{p['resnet_v2_50']:.0f} | {p['inception_v3']:.0f} | {p['mobilenet_v1']:.0f} |")
body += ("\n\n**Tesla P40 under the BatchDVFS paper's runs** (tests/data/batchdvfs, every run's nvidia-smi samples; "
         "samples of the same clock pooled over runs and models; dse's P40 idle_w is fitted to these 0 % samples, configs/hardware/gpu/p40.yaml [BD]):\n\n" + "\n".join(prow))
wrows = ["| window | prefill ms | decode ms | pass ms | average W | energy J | SM clock MHz (time-averaged) | what the firmware did |",
         "|---|---:|---:|---:|---:|---:|---:|---|"]
for label, text in (("5 ms", sys.argv[9]), ("1 s (longer than the pass)", sys.argv[10])):
    d = json.loads(text)
    m = d["metrics"]
    wrows.append(f"| {label} | {m['latency_ms_model0']:.1f} | {m['latency_ms_model1']:.2f} | {m['latency_ms']:.1f} | "
                 f"{m['power_avg_w']:.1f} | {m['energy_j']:.1f} | {m['sm_clock_mhz']:.0f} | {d['device']['clock']} |")
body += ("\n\n**A clock per window** (`dse run configs/experiments/power_window_llm.yaml -p device.power_window_ms=W`: "
         "GPT-2 XL prefill, 1,024 tokens, then one decode step, batch 16, FP16, H100 SXM5 at 350 W):\n\n" + "\n".join(wrows) +
         "\n\n![GPT-2 XL prefill and decode on an H100 held to 350 W, 5 ms windows: kernels, SM occupancy, DRAM "
         "bandwidth, board power against the limit, and the SM clock the firmware set window by window: held "
         "below boost through the prefill, lower for the vocabulary projection, boost for the decode]"
         "(img/power_window_llm_timeline.png)\n\n"
         "*`dse report results/power_window_llm.h5` (the 5 ms run; `scripts/update_power_doc.sh` regenerates it).*")
# The H200 under 20 s holds: what it drew and ran at against the model at the same work.
summary = json.load(open(sys.argv[16]))
hold32, hold16 = (json.loads(sys.argv[i])["rows"][0] for i in (13, 14))
with open(sys.argv[15]) as f:
    stream = next(csv.DictReader(f))
def rate(r):
    return 2 * r["m"] * r["n"] * r["k"] / r["predicted_ms"] / 1e9
hrows = ["| load (20 s hold at the default 700 W limit) | measured SM MHz | dse MHz | measured W | dse W | measured rate | dse rate |",
         "|---|---:|---:|---:|---:|---:|---:|"]
idle = summary["idle"]
hrows.append(f"| idle, no process on the GPU | {idle['sm_clock_mhz_median']:.0f} | - | {idle['power_w_median']:.1f} | "
             f"{float(sys.argv[17]):.1f} (the spec's) | - | - |" if sys.argv[17] else "")
for label, key, row in (("cuBLAS SGEMM 8192^3 (FP32, no TF32)", "hold_fp32", hold32),
                        ("cuBLAS FP16 GEMM 8192^3 (FP32 accumulation)", "hold_fp16", hold16)):
    m = summary[key]
    hrows.append(f"| {label} | {m['sm_clock_mhz_median']:.0f} | {row['clock_mhz']:.0f} | {m['power_w_median']:.1f} | "
                 f"{row['power_w']:.1f} | {m['rate_median']:.1f} TFLOPS | {rate(row):.1f} TFLOPS |")
m = summary["hold_stream"]
hrows.append(f"| device-to-device copy, 2 GiB | {m['sm_clock_mhz_median']:.0f} | {float(stream['clock_mhz']):.0f} | "
             f"{m['power_w_median']:.1f} | {float(stream['power_w']):.1f} | {m['rate_median']:.0f} GB/s | "
             f"{2 * 2**31 / float(stream['predicted_ms']) / 1e6:.0f} GB/s |")
body += ("\n\n**An H200 measured here** (results/device/h200/summary.json: medians over each hold after its first 5 s; "
         "nvidia-smi every 200 ms; the FP16 GEMM's clock set `tensor_energy_scale`, the other rows are checks):\n\n" +
         "\n".join(r for r in hrows if r))
# ResNet-50 end to end (results/device/h200/resnet50_power*.csv, scripts/device/measure_resnet50_power.py).
layouts = {}
for suffix, label in (("", "NCHW"), ("_cl", "channels-last")):
    with open(f"results/device/h200/resnet50_power{suffix}.csv") as f:
        for row in csv.DictReader(f):
            layouts.setdefault(int(row["batch"]), {})[label] = row
rrows = ["| batch | measured ms, channels-last (NCHW) | dse ms | measured W, channels-last (NCHW) | dse W | measured MHz | dse MHz | measured mJ per image, channels-last | dse mJ per image |",
         "|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
for line in sys.argv[18].splitlines():
    batch, ms, mhz, watts = line.split()
    batch, ms, mhz, watts = int(batch), float(ms), float(mhz), float(watts)
    cl, nchw = layouts[batch]["channels-last"], layouts[batch].get("NCHW")
    both = lambda key, fmt: f"{float(cl[key]):{fmt}}" + (f" ({float(nchw[key]):{fmt}})" if nchw else "")
    rrows.append(f"| {batch} | {both('latency_ms', '.3f')} | {ms:.3f} | {both('power_w', '.0f')} | {watts:.0f} | "
                 f"{float(cl['sm_clock_mhz']):.0f} | {mhz:.0f} | {float(cl['latency_ms']) * float(cl['power_w']) / batch:.1f} | "
                 f"{ms * watts / batch:.1f} |")
body += ("\n\n**ResNet-50 FP16 end to end on the H200** (torchvision's model in a CUDA graph, replayed back to back; "
         "results/device/h200/resnet50_power*.csv; dse: `dse run configs/experiments/quickstart.yaml -p "
         "'workload.models[0].batch=B'`):\n\n" + "\n".join(rrows))
print(body)
PY
  python3 scripts/replace_doc_section.py docs/power.md power
echo "docs/power.md updated" >&2
