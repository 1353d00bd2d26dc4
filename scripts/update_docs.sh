#!/usr/bin/env bash
# Regenerates every generated section of docs/ (and the figures and result files they show), one
# generator after another, printing what each took. Each generator also runs alone (its own header
# says what it writes); prose numbers around a section are kept by hand and say the command that
# gives them.
#   scripts/update_docs.sh [path/to/dse] [--quick]
# --quick: only the generators that take seconds (the ones tests/docs/check_generated_docs.sh and
# the DeclaredKeys / metric-catalog tests hold to the committed docs). DSE_DOCS_OUT=DIR writes the
# docs there instead (the studies still write their CSVs and figures under results/ and docs/img/).
set -euo pipefail
cd "$(dirname "$0")/.."
dse=build/dse
quick=0
for arg in "$@"; do
  case "$arg" in
    --quick) quick=1 ;;
    *) dse=$arg ;;
  esac
done
[ -x "$dse" ] || { echo "update_docs: no dse binary at $dse (build it first: scripts/bootstrap.sh)" >&2; exit 2; }
run() {  # run NAME COMMAND...: times it
  local start=$SECONDS
  echo "=== $1" >&2
  "${@:2}" > /dev/null
  echo "=== $1: $((SECONDS - start)) s" >&2
}
# Seconds each.
run "metrics table (docs/metrics.md)" scripts/update_metrics_doc.sh "$dse"
run "declared keys (docs/serving.md, multitenant.md, search.md, calibration.md)" scripts/update_key_tables.sh "$dse"
run "BatchDVFS validation (docs/batch_dvfs.md section 4)" scripts/batchdvfs_validate_all.sh "$dse"
[ "$quick" = 1 ] && exit 0
# Minutes each (times on the 2-core dev machine).
run "models (docs/models.md)" scripts/update_models_doc.sh "$dse"
run "power (docs/power.md)" scripts/update_power_doc.sh "$dse"
run "accelerator (docs/accelerator.md)" scripts/update_accelerator_doc.sh "$dse"
run "validation (docs/validation.md)" scripts/update_validation_doc.sh "$dse"
run "serving SLO study (docs/batch_dvfs.md section 3, ~4 min)" scripts/serving_slo_study.sh "$dse"
run "BatchDVFS study (docs/batch_dvfs.md section 2, ~4 min)" scripts/batch_dvfs_study.sh "$dse"
run "multitenant study (docs/multitenant.md, ~30 s)" scripts/multitenant_study.sh "$dse"
run "FAST study (docs/fast.md)" scripts/run_fast_study.sh "$dse"
run "calibration study (docs/calibration.md, ~1 min)" scripts/calibration_study.sh "$dse"
run "accelerator + serving co-design (docs/search.md, ~10 s)" scripts/coopt_accel_serving_study.sh "$dse"
run "search strategies figure (docs/search.md)" scripts/search_strategies_figure.sh "$dse"
