#!/usr/bin/env bash
# `dse report` end to end (ctest report.renders_in_chromium): a single run, a search, a kernel, an
# end-to-end and a GEMM validation, and two serving runs (one governed by BatchDVFS under a cap),
# each reported alone and all compared; every page is opened in headless Chromium, which must load
# every image and log nothing to the console; the compared page's screenshot is kept as
# results/report_check/screenshot.png. Then a missing, a truncated and a foreign file must each exit
# 2 naming the file.
#   tests/report/check_report.sh path/to/dse
set -euo pipefail
cd "$(dirname "$0")/../.."
dse=$(realpath "$1")
work=$(mktemp -d /tmp/dse_report_check.XXXXXX)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
browser=$(command -v chromium || command -v chromium-browser || true)
[ -n "$browser" ] || fail "no chromium: install Debian's chromium (scripts/bootstrap.sh does)"

"$dse" run configs/experiments/quickstart.yaml -q -p "output=$work/single.h5" > /dev/null
"$dse" run configs/experiments/search_pareto.yaml -q -p "output=$work/search.h5" \
  -p 'search.strategy={name: nsga2, trials: 60, batch: 20, population: 20, seed: 1}' > /dev/null
"$dse" run configs/experiments/serving_resnet50_dynamic.yaml -q -p "output=$work/serving.h5" \
  -p workload.serving.duration_s=10 > /dev/null
"$dse" validate kernels tests/data/neusight/test_ln.csv tests/data/neusight/test_softmax.csv -q \
  --output "$work/validation.h5"
"$dse" validate e2e tests/data/neusight/e2e_labels.csv -q --output "$work/e2e.h5"
"$dse" validate gemm tests/data/llmcompass/a100_fp16_matmul.csv -q --output "$work/gemm.h5"
"$dse" run configs/experiments/batch_dvfs_resnet_v2_50.yaml -q -p "output=$work/governed.h5" \
  -p workload.serving.duration_s=20 -p workload.serving.warmup_s=5 > /dev/null

# A search file carries its baseline (the experiment as written) for the report to mark.
/usr/bin/python3 -c '
import h5py, sys
g = h5py.File(sys.argv[1])["baseline/metrics"]
names = [n.decode() for n in g["name"][()]]
assert "throughput_per_s" in names and "latency_ms" in names, names
' "$work/search.h5" || fail "search.h5: no /baseline/metrics with the objectives"

# Opens a page headless; checks that every image decoded and nothing reached the console.
check_page() {  # index.html expected_images [screenshot]
  local dom="$work/dom.html" log="$work/browser.log"
  "$browser" --headless=new --no-sandbox --disable-gpu --enable-logging=stderr --v=0 --virtual-time-budget=5000 \
    --dump-dom "file://$1" > "$dom" 2> "$log" || fail "chromium could not open $1: $(tail -3 "$log")"
  local body
  body=$(grep -o '<body[^>]*>' "$dom" | head -1)
  [[ "$body" == *"data-images=\"$2\" data-images-loaded=\"$2\""* ]] ||
    fail "$1: expected $2 images loaded, found: $body"
  if grep -q "CONSOLE" "$log"; then fail "$1 logged to the console: $(grep CONSOLE "$log")"; fi
  if [ -n "${3:-}" ]; then
    "$browser" --headless=new --no-sandbox --disable-gpu --hide-scrollbars --window-size=1200,2400 \
      --screenshot="$3" "file://$1" > /dev/null 2>&1 || fail "no screenshot of $1"
    [ -s "$3" ] || fail "empty screenshot $3"
  fi
}
# Reports one set of files; checks the figures it claims exist and the page shows them all.
report() {  # expected_figures files... [flags]
  local expected=$1
  shift
  local json
  json=$("$dse" report "$@" --json) || fail "dse report $* exited $?"
  local index count
  index=$(/usr/bin/python3 -c 'import json,sys; print(json.loads(sys.argv[1])["index"])' "$json")
  count=$(/usr/bin/python3 -c 'import json,os,sys; f=json.loads(sys.argv[1])["figures"]; print(sum(os.path.getsize(p) > 0 for p in f))' "$json")
  [ "$count" -eq "$expected" ] || fail "dse report $*: expected $expected figures, found $count"
  check_page "$(realpath "$index")" "$expected" "${screenshot:-}"
  echo "ok: dse report $* ($count figures)"
}
screenshot= report 2 "$work/single.h5" --out "$work/single"
screenshot= report 3 "$work/search.h5" --out "$work/search"
screenshot= report 3 "$work/serving.h5" --out "$work/serving" --format svg
screenshot= report 3 "$work/governed.h5" --out "$work/governed"
screenshot= report 2 "$work/validation.h5" --out "$work/validation"
screenshot= report 2 "$work/e2e.h5" --out "$work/e2e"
screenshot= report 2 "$work/gemm.h5" --out "$work/gemm"
mkdir -p results/report_check
screenshot=$PWD/results/report_check/screenshot.png report 13 "$work/single.h5" "$work/search.h5" \
  "$work/serving.h5" "$work/governed.h5" --compare --out "$work/compare"

# Bad input: exit 2 and one line naming the file, never a traceback.
head -c 1000 "$work/single.h5" > "$work/truncated.h5"
/usr/bin/python3 -c 'import h5py, sys; h5py.File(sys.argv[1], "w")["x"] = [1]' "$work/foreign.h5"
# A result file without /meta/kind, told by its groups, whose /requests lacks arrival_s.
/usr/bin/python3 -c '
import h5py, sys
with h5py.File(sys.argv[1], "w") as f:
    f["config"], f["meta/host"], f["requests/end_s"] = "x: 1\n", "vm", [1.0]
' "$work/malformed.h5"
for bad in "$work/missing.h5" "$work/truncated.h5" "$work/foreign.h5" "$work/malformed.h5" \
  configs/experiments/quickstart.yaml; do
  set +e
  err=$("$dse" report "$bad" --out "$work/bad" 2>&1 > /dev/null)
  code=$?
  set -e
  [ "$code" -eq 2 ] || fail "dse report $bad: expected exit 2, found $code ($err)"
  [[ "$err" == "dse: error: $bad: "* && "$err" != *$'\n'* ]] ||
    fail "dse report $bad: expected one line 'dse: error: $bad: ...', found '$err'"
  echo "ok: $err"
done
