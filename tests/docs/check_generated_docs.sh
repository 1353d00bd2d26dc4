#!/usr/bin/env bash
# A committed doc's generated sections must be what the code gives today: each generator that runs
# in seconds and writes nothing but its doc section is run into a scratch folder (DSE_DOCS_OUT) and
# its output compared with the committed doc. Heavier generators (the studies) are listed in
# docs/reliability.md with the command that regenerates them.
#   tests/docs/check_generated_docs.sh path/to/dse
set -euo pipefail
cd "$(dirname "$0")/../.."
dse=$1
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
export DSE_DOCS_OUT=$scratch
failed=0
check() {  # check DOC: the generator just wrote $scratch/$(basename DOC)
  if ! diff -u "$1" "$scratch/$(basename "$1")" > "$scratch/diff"; then
    echo "$1 is stale: regenerate it with $2" >&2
    head -40 "$scratch/diff" >&2
    failed=1
  fi
}
scripts/batchdvfs_validate_all.sh "$dse" "$scratch/batchdvfs_validation.csv" > /dev/null 2>&1
check docs/batch_dvfs.md "scripts/batchdvfs_validate_all.sh"
exit $failed
