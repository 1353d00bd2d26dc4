#!/usr/bin/env bash
# Fault injection at scale (docs/reliability.md): a search is killed with SIGKILL at random points,
# again and again, and resumed until it finishes; the result must equal an uninterrupted run's, with
# every trial in the journal exactly once and no temporary file left. Then, where this shell may
# mount a tmpfs (root), a real full disk under the journal and under the HDF5 file, and an output
# folder that cannot be written. Prints one line per check and a summary; exits 1 on any failure.
#   scripts/fault_injection.sh [path/to/dse] [ROUNDS=20] [TRIALS=1000] [SEED=1]
set -euo pipefail
cd "$(dirname "$0")/.."
dse=$(realpath "${1:-build/dse}")
rounds=${2:-20}
trials=${3:-1000}
RANDOM=${4:-1}
work=$(mktemp -d /tmp/dse_faults.XXXXXX)
mounts=()
cleanup() {
  for m in "${mounts[@]}"; do umount "$m" 2> /dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# The search: 1,000 random (batch, GPU) points of ResNet-50 under a latency constraint.
experiment() {  # name output_path
  cat << EOF
name: $1
workload:
  models:
    - {name: resnet50, batch: 8, dtype: fp16}
device: {gpu: t4, timing_model: kernel}
output: $2
search:
  space:
    workload.models[0].batch: {int: [1, 256]}
    device.gpu: {choice: [t4, l4, a10, a100_pcie_40gb, h100_sxm, v100_pcie]}
  objective: {maximize: throughput_per_s}
  constraints: {latency_ms: {le: 20}}
  strategy: {name: random, trials: $trials, batch: 16, seed: 3}
EOF
}
# The parts of a search's JSON summary that must not depend on interruptions.
summary() {
  /usr/bin/env python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))
print(json.dumps({k: r.get(k) for k in ('best', 'trials', 'status_counts')}, sort_keys=True))" "$1"
}
# Every trial id in a journal exactly once (a last line cut short by a kill is dropped on resume).
journal_ok() {
  /usr/bin/env python3 -c "
import json, sys
ids = [json.loads(l)['id'] for l in open(sys.argv[1]).read().splitlines()[1:] if l.strip()]
sys.exit(0 if sorted(ids) == list(range(len(ids))) and len(ids) == int(sys.argv[2]) else 1)" "$1" "$trials" 2> /dev/null
}

experiment whole "$work/whole.h5" > "$work/whole.yaml"
start=$(date +%s.%N)
"$dse" run "$work/whole.yaml" --json -q > "$work/whole.json"
whole_s=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }')
reference=$(summary "$work/whole.json")
echo "uninterrupted: $trials trials in ${whole_s} s"

kills=0 resumed_ok=0
for round in $(seq 1 "$rounds"); do
  dir="$work/round$round"
  mkdir -p "$dir"
  experiment killed "$dir/killed.h5" > "$dir/killed.yaml"
  # 1 to 3 kills, each at a uniformly random time within what the run has left (the uninterrupted
  # run's length times the share of trials not yet in the journal).
  for _ in $(seq 1 $((RANDOM % 3 + 1))); do
    resume=()
    left=1
    if [ -e "$dir/killed.journal.jsonl" ]; then
      resume=(--resume)
      left=$(awk -v n="$trials" 'END { d = NR - 1; print (d < n ? (n - d) / n : 0) }' "$dir/killed.journal.jsonl")
    fi
    "$dse" run "$dir/killed.yaml" "${resume[@]}" -q > /dev/null 2>&1 &
    pid=$!
    sleep "$(awk -v t="$whole_s" -v f="$left" -v r=$RANDOM 'BEGIN { printf "%.3f", t * f * r / 32767 }')"
    kill -9 "$pid" 2> /dev/null && kills=$((kills + 1)) || true
    wait "$pid" 2> /dev/null || true
  done
  resume=()
  [ -e "$dir/killed.journal.jsonl" ] && resume=(--resume)
  if ! "$dse" run "$dir/killed.yaml" "${resume[@]}" --json -q > "$dir/killed.json" 2> "$dir/err"; then
    fail "round $round: the resumed run failed: $(cat "$dir/err")"
    continue
  fi
  if [ "$(summary "$dir/killed.json")" != "$reference" ]; then
    fail "round $round: the resumed result differs from the uninterrupted run's"
  elif ! journal_ok "$dir/killed.journal.jsonl"; then
    fail "round $round: the journal does not hold every trial exactly once"
  elif compgen -G "$dir/*.tmp-*" > /dev/null; then
    fail "round $round: temporary files left: $(ls "$dir"/*.tmp-*)"
  else
    resumed_ok=$((resumed_ok + 1))
  fi
  rm -rf "$dir"
done
echo "kill -9: $kills kills over $rounds rounds; $resumed_ok of $rounds resumed to the uninterrupted result"

# A real full disk and a read-only folder need a tmpfs mount (root).
if ! { mkdir -p "$work/probe" && mount -t tmpfs -o size=1m tmpfs "$work/probe" 2> /dev/null; }; then
  echo "full disk, read-only folder: skipped (mounting a tmpfs needs root)"
else
  mounts+=("$work/probe")
  # Journal: a 256 KiB tmpfs fills part way through the search (the journal of 1,000 trials is ~0.5 MB).
  small="$work/small"
  mkdir -p "$small"
  mount -t tmpfs -o size=256k tmpfs "$small"
  mounts+=("$small")
  experiment full "$small/full.h5" > "$work/full.yaml"
  set +e
  "$dse" run "$work/full.yaml" -q > /dev/null 2> "$work/full.err"
  code=$?
  set -e
  if [ "$code" -ne 2 ] || ! grep -q "No space left on device" "$work/full.err"; then
    fail "full disk under the journal: exit $code, '$(cat "$work/full.err")' (expected exit 2 naming ENOSPC)"
  elif compgen -G "$small/*.tmp-*" > /dev/null; then
    fail "full disk under the journal: temporary files left"
  else
    # More room (the same mount, grown), then resume: the trials journaled before the disk filled count.
    mount -o remount,size=64m "$small"
    if ! "$dse" run "$work/full.yaml" --resume --json -q > "$work/full.json" 2> "$work/resume.err"; then
      fail "resume after the full disk failed: $(cat "$work/resume.err")"
    elif [ "$(summary "$work/full.json")" != "$reference" ] || ! journal_ok "$small/full.journal.jsonl"; then
      fail "resume after the full disk: result or journal differs from the uninterrupted run's"
    else
      echo "full disk under the journal: exit 2 ($(head -c 160 "$work/full.err" | tr '\n' ' ')...); resumed to the uninterrupted result"
    fi
  fi
  # HDF5: a single run whose result file does not fit (64 KiB free).
  tiny="$work/tiny"
  mkdir -p "$tiny"
  mount -t tmpfs -o size=64k tmpfs "$tiny"
  mounts+=("$tiny")
  set +e
  "$dse" run configs/experiments/quickstart.yaml -p "output=$tiny/quick.h5" -q > /dev/null 2> "$work/h5.err"
  code=$?
  set -e
  if [ "$code" -ne 2 ] || ! grep -q "No space left on device" "$work/h5.err"; then
    fail "full disk under the HDF5 file: exit $code, '$(cat "$work/h5.err")'"
  elif [ -n "$(ls -A "$tiny")" ]; then
    fail "full disk under the HDF5 file: left $(ls -A "$tiny")"
  else
    echo "full disk under the HDF5 file: exit 2 ($(head -c 160 "$work/h5.err" | tr '\n' ' ')...); nothing left behind"
  fi
  # A read-only folder: refused before any trial runs.
  ro="$work/ro"
  mkdir -p "$ro"
  mount -t tmpfs -o size=1m,ro tmpfs "$ro"
  mounts+=("$ro")
  experiment ro "$ro/ro.h5" > "$work/ro.yaml"
  set +e
  start=$(date +%s.%N)
  "$dse" run "$work/ro.yaml" -q > /dev/null 2> "$work/ro.err"
  code=$?
  set -e
  ro_s=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }')
  if [ "$code" -ne 2 ] || ! grep -q "Read-only file system" "$work/ro.err"; then
    fail "read-only output folder: exit $code, '$(cat "$work/ro.err")'"
  elif awk -v a="$ro_s" -v b="$whole_s" 'BEGIN { exit !(a > b / 4) }'; then
    fail "read-only output folder: refused only after ${ro_s} s (the search takes ${whole_s} s)"
  else
    echo "read-only output folder: exit 2 after ${ro_s} s ($(head -c 160 "$work/ro.err" | tr '\n' ' ')...)"
  fi
fi

if [ "$failures" -ne 0 ]; then
  echo "fault injection: $failures FAILED"
  exit 1
fi
echo "fault injection: all passed"
