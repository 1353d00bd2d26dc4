#!/usr/bin/env bash
# One device run for the GPU power model (sim/gpu/gpu_power.h): on the GPU of this machine, observe
# the SM clock and board power at idle, while an FP32 SGEMM, an FP16 tensor-core GEMM and a DRAM
# stream (device-to-device copies) run back to back, and time LLMCompass's GEMM shapes in both
# types. Observes only: never sets clocks, limits or modes.
#   scripts/device/measure_gemm_clocks.sh OUT_DIR [SECONDS_PER_HOLD]
# Writes to OUT_DIR: smi_before.txt (nvidia-smi -q), smi_samples.csv (clock, power, throttle
# reasons every 200 ms), hold_fp32.csv / hold_fp16.csv (TFLOPS each second), hold_stream.csv (GB/s
# each second), gemm_fp32.csv /
# gemm_fp16.csv (LLMCompass format) and phases.csv (when each hold ran). Back on a machine with
# dse: `dse validate gemm OUT_DIR/gemm_fp16.csv --gpu h200` (and --dtype fp32) prints the modelled
# clock beside the errors; `python3 scripts/device/summarize_gemm_clocks.py OUT_DIR` the observed.
# Needs nvcc and cuBLAS (the CUDA Toolkit) and nvidia-smi. About 3 minutes with 30 s holds.
set -euo pipefail
out=${1:?usage: measure_gemm_clocks.sh OUT_DIR [SECONDS_PER_HOLD]}
hold=${2:-30}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
nvcc -O2 -std=c++17 -arch=native -o "$out/gemm_clocks" "$here/../../hwcal/gemm_clocks.cu" -lcublas
nvidia-smi -q > "$out/smi_before.txt"
# Drivers from 535 on name the throttle reasons "clock events"; older ones know only the first name.
reasons=clocks_event_reasons.active
nvidia-smi --query-gpu=$reasons --format=csv > /dev/null 2>&1 || reasons=clocks_throttle_reasons.active
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,power.limit,temperature.gpu,$reasons \
  --format=csv,nounits -lms 200 > "$out/smi_samples.csv" &
sampler=$!
trap 'kill $sampler 2>/dev/null || true' EXIT
echo "phase,start_unix_s,end_unix_s" > "$out/phases.csv"
start=$(date +%s.%N)
sleep 10  # idle: nothing of ours runs
echo "idle,$start,$(date +%s.%N)" >> "$out/phases.csv"
for type in fp32 fp16; do
  start=$(date +%s.%N)
  "$out/gemm_clocks" hold "$type" "$hold" 8192 > "$out/hold_$type.csv"
  echo "hold_$type,$start,$(date +%s.%N)" >> "$out/phases.csv"
  sleep 5  # let the clock settle between loads
done
start=$(date +%s.%N)
"$out/gemm_clocks" stream "$hold" 2048 > "$out/hold_stream.csv"
echo "hold_stream,$start,$(date +%s.%N)" >> "$out/phases.csv"
for type in fp32 fp16; do
  "$out/gemm_clocks" sweep "$type" > "$out/gemm_$type.csv"
done
nvidia-smi -q -d CLOCK,POWER,PERFORMANCE > "$out/smi_after.txt"
rm -f "$out/gemm_clocks"
echo "measure_gemm_clocks: wrote $out" >&2
