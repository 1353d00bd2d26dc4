#!/usr/bin/env bash
# One device run for issue-21's calibration on a real GPU: build dse with CUDA (Release, tests and
# benches off), name the GPU from nvidia-smi, and run a calibration session of the zoo's kernels on
# it with DOPpler's controller and a serial reference (every kernel also measured alone), then
# `dse calibration validate`. Observes only: dse never changes clocks or limits (no
# --allow-clock-control here).
#   scripts/device/calibrate.sh OUT_DIR [SPEC]        (SPEC: h200, h100_sxm, ...; found from the name)
# Writes OUT_DIR/<spec>.yaml (the calibration with its session), <spec>.journal.jsonl, session.json
# (dse calibrate --json), validate.json and validate.txt, smi.txt. Target: under 8 minutes.
set -euo pipefail
out=${1:?usage: calibrate.sh OUT_DIR [SPEC]}
cd "$(dirname "$0")/../.."
mkdir -p "$out"
nvidia-smi -q > "$out/smi.txt"
cmake -S . -B build-device -G Ninja -DCMAKE_BUILD_TYPE=Release -DDSE_WITH_CUDA=ON -DDSE_WITH_MPI=OFF \
  -DDSE_BUILD_TESTS=OFF -DDSE_BUILD_BENCH=OFF > "$out/cmake.log"
cmake --build build-device -j "$(nproc)" --target dse dse_measure_cuda > "$out/build.log"
name=$(nvidia-smi --id=0 --query-gpu=name --format=csv,noheader)
spec=${2:-}
if [ -z "$spec" ]; then
  case "$name" in
    *H200*) spec=h200 ;;
    *H100*PCIe*) spec=h100_pcie ;;
    *H100*) spec=h100_sxm ;;
    *A100*80GB*PCIe*) spec=a100_pcie_80gb ;;
    *A100*PCIe*) spec=a100_pcie_40gb ;;
    *A100*80GB*) spec=a100_sxm4_80gb ;;
    *A100*) spec=a100_sxm4_40gb ;;
    *L4*) spec=l4 ;;
    *T4*) spec=t4 ;;
    *) echo "calibrate.sh: no spec for '$name': give one (dse list gpu)" >&2; exit 2 ;;
  esac
fi
timeout 480 build-device/dse calibrate --backend cuda --gpu "$spec" --serial-reference --force --json \
  --output "$out/$spec.yaml" -p 'kernels.models=[resnet50, mobilenet_v2, bert_base]' > "$out/session.json"
build-device/dse calibration validate "$out/$spec.yaml" > "$out/validate.txt"
build-device/dse calibration validate "$out/$spec.yaml" --json -q > "$out/validate.json"
cat "$out/validate.txt"
