#!/usr/bin/env bash
# Builds the libFuzzer targets (tests/fuzz, with clang, ASan + UBSan) and runs each for a bounded
# time from seed corpora taken from the repository's own inputs; fails on any crash, leak,
# sanitizer report, uncaught non-user exception or timeout (tests/fuzz/README.md).
#   scripts/run_fuzzers.sh [SECONDS_PER_TARGET=60] [BUILD_DIR=build-fuzz]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
build=${2:-build-fuzz}
if ! command -v clang++ > /dev/null; then
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends clang >&2
fi
# -O1 with line tables (-g1): libFuzzer's recommended level, and half the compile time of -O2 -g.
CC=clang CXX=clang++ cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1" -DDSE_FUZZ=ON \
  -DDSE_BUILD_TESTS=OFF -DDSE_BUILD_BENCH=OFF -DDSE_WITH_CUDA=OFF -DDSE_WITH_MPI=OFF >&2
targets=(fuzz_config fuzz_gpu_spec fuzz_onnx fuzz_scalesim fuzz_kernel_csv fuzz_arrival_trace fuzz_replay_log
         fuzz_journal fuzz_merge fuzz_calibration)
cmake --build "$build" -j "$(nproc)" --target "${targets[@]}" >&2

# Seed corpora: every config, spec and bad config in the repository, SCALE-Sim's inputs, the first
# rows of each measurement file, and the ONNX fixtures when python3-onnx can make them.
seeds="$build/seeds"
rm -rf "$seeds"
mkdir -p "$seeds"/{config,gpu_spec,onnx,scalesim,kernel_csv,arrival_trace,replay_log,journal,merge,calibration}
cp configs/experiments/*.yaml tests/bad_configs/*.yaml "$seeds/config/"
cp configs/hardware/gpu/*.yaml "$seeds/gpu_spec/"
cp tests/data/scalesim/inputs/* "$seeds/scalesim/"
cp tests/data/scalesim_user/inputs/*.csv "$seeds/scalesim/"   # InterfaceBandwidth: USER configs and topologies
for run in tests/data/scalesim_user/runs/*_bw4; do cp "$run/config.cfg" "$seeds/scalesim/$(basename "$run").cfg"; done
for f in tests/data/neusight/test_*.csv tests/data/neusight/train_conv.csv tests/data/neusight/model_ops/nvidia_h100*.csv; do
  head -40 "$f" > "$seeds/kernel_csv/$(basename "$f")"
done
# The paper's recorded serving runs (their first rows), and their batch time stamps as arrival
# traces: shifted to start at 0, and as the Unix times they are (refused without shift_to_zero).
for f in tests/data/batchdvfs/*/*.csv; do
  head -60 "$f" > "$seeds/replay_log/$(basename "$f")"
  awk -F, 'BEGIN { print "arrival_s" } NR > 1 && NR <= 201 { print $1 }' "$f" > "$seeds/arrival_trace/unix_$(basename "$f")"
  awk -F, 'BEGIN { print "arrival_s" } NR == 2 { t0 = $1 } NR > 1 && NR <= 201 { printf "%.2f\n", $1 - t0 }' "$f" \
    > "$seeds/arrival_trace/$(basename "$f")"
done
# dse replay's options as leading lines (fuzz_replay_log): 400 rows inside one period (what was
# cubic in them), a period shorter than the rows' gaps, the clock levels given, a static batch.
f=tests/data/batchdvfs/batchdvfs/04_InceptionV4_BatchDVFS.csv
{ echo "-p period_s=3600"; head -400 "$f"; } > "$seeds/replay_log/one_long_period.csv"
{ echo "-p period_s=0.01"; head -60 "$f"; } > "$seeds/replay_log/short_period.csv"
{ echo "--clock-levels 544,632,734,835,949,1063,1189,1303,1430,1531"; echo "--initial-clock 1531"; echo "--max-batch 128"
  head -60 "$f"; } > "$seeds/replay_log/clock_levels.csv"
{ echo "-p batch=8"; head -60 "$f"; } > "$seeds/replay_log/static_batch.csv"
cp tests/fuzz/seeds/journal/* "$seeds/journal/"
# dse merge's inputs (fuzz_merge: journals joined by NUL bytes): each shard alone, the whole split,
# a shard twice, and the journal of a search run whole.
shard0=tests/fuzz/seeds/merge/search_gpu_batch.shard-0-of-2.journal.jsonl
shard1=tests/fuzz/seeds/merge/search_gpu_batch.shard-1-of-2.journal.jsonl
cp "$shard0" "$shard1" tests/fuzz/seeds/journal/search_gpu_batch.journal.jsonl "$seeds/merge/"
{ cat "$shard0"; printf '\0'; cat "$shard1"; } > "$seeds/merge/whole_split"
{ cat "$shard0"; printf '\0'; cat "$shard0"; } > "$seeds/merge/shard_twice"
cp tests/fuzz/seeds/calibration/* "$seeds/calibration/"
/usr/bin/python3 tests/onnx/make_fixtures.py "$seeds/onnx" > /dev/null 2>&1 || echo "no python3-onnx: fuzz_onnx starts from nothing" >&2
mkdir -p "$build/crashes"
status=0
for target in "${targets[@]}"; do
  corpus="$build/corpus/$target"
  mkdir -p "$corpus"
  echo "=== $target: ${seconds} s" >&2
  if ! ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
      "$build/tests/fuzz/$target" "$corpus" "$seeds/${target#fuzz_}" -max_total_time="$seconds" -timeout=10 \
      -rss_limit_mb=4096 -malloc_limit_mb=2048 -max_len=65536 -artifact_prefix="$build/crashes/$target-" -print_final_stats=1 \
      2> "$build/$target.log"; then
    echo "$target FAILED: $(grep -m1 -E 'ERROR|SUMMARY|uncaught' "$build/$target.log" || tail -1 "$build/$target.log")" >&2
    status=1
  fi
  grep -E "^stat::number_of_executed_units|^stat::peak_rss_mb" "$build/$target.log" | sed "s/^/$target /" >&2 || true
done
exit $status
