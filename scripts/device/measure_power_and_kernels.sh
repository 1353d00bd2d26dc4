#!/usr/bin/env bash
# The one device run for issue 17 (GPU power and clocks), about 5 minutes on an H200: observe the
# GPU's clock and power at idle and under an FP32 SGEMM, an FP16 GEMM and a DRAM stream
# (measure_gemm_clocks.sh, 20 s holds), a step load sampled by NVML every ~10 ms (power_step.py),
# and NeuSight's kernel shapes timed in NeuSight's format (measure_kernels.py). Each part runs even
# if another fails. Observes only: never sets clocks, power limits or modes.
#   scripts/device/measure_power_and_kernels.sh OUT_DIR
# Back here: results/device/<gpu>/ holds what it wrote; docs/power.md and docs/validation.md say
# what was checked against it.
set -u
out=${1:?usage: measure_power_and_kernels.sh OUT_DIR}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
export PYTHONUNBUFFERED=1
nvidia-smi -q -d SUPPORTED_CLOCKS > "$out/smi_supported_clocks.txt" 2>&1
step() {
  local name=$1; shift
  local begin=$SECONDS
  if "$@"; then echo "== $name: ok ($((SECONDS - begin)) s)"; else echo "== $name: FAILED rc=$? ($((SECONDS - begin)) s)"; fi
}
step gemm_clocks bash "$here/measure_gemm_clocks.sh" "$out" 20
step summary python3 "$here/summarize_gemm_clocks.py" "$out"
step power_step python3 "$here/power_step.py" "$out"
step kernels python3 "$here/measure_kernels.py" "$out"
nvidia-smi -q -d CLOCK,POWER,TEMPERATURE,PERFORMANCE > "$out/smi_end.txt" 2>&1
ls -l "$out"
