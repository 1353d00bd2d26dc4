#!/usr/bin/env bash
# Regenerates the key tables of the docs (section FAMILY_keys of each family's doc) from
# `dse list FAMILY --json`: each implementation's declared keys (KeySpec), one row per key. The
# DeclaredKeys.*Docs* tests fail when a table is stale. (The device block's keys are written by hand
# in docs/config.md; DeclaredKeys.TheConfigDocsHasARowForEachDeviceKey holds them to the declarations.)
#   scripts/update_key_tables.sh [path/to/dse]      (DSE_DOCS_OUT=DIR writes DIR/DOC.md instead)
set -euo pipefail
cd "$(dirname "$0")/.."
dse=${1:-build/dse}
for pair in arrivals:docs/serving.md batching:docs/serving.md governor:docs/serving.md \
            schedule:docs/multitenant.md strategy:docs/search.md calibration_backend:docs/calibration.md; do
  family=${pair%%:*}
  doc=${pair#*:}
  "$dse" list "$family" --json -q | FAMILY="$family" python3 -c '
import json, os, sys
family = os.environ["FAMILY"]
entries = json.load(sys.stdin)["families"][family]["entries"]
print(f"| {family} | key | type | default | unit | meaning |")
print("|---|---|---|---|---|---|")
for e in entries:
    for k in e.get("keys", []):
        default = "optional" if k["default"] == "none" else k["default"]
        cells = ["`%s`" % e["name"], "`%s`" % k["name"], k["type"], default, k["unit"], k["help"]]
        print("| " + " | ".join(cells) + " |")
' | python3 scripts/replace_doc_section.py "$doc" "${family}_keys"
  echo "$doc: ${family}_keys updated" >&2
done
