#!/usr/bin/env bash
# Regenerates the key tables of docs/serving.md (arrival processes, batching policies, governors)
# from `dse list FAMILY --json`: each implementation's declared keys (KeySpec). The test
# DeclaredKeys.TheServingDocsTablesAreTheDeclarations fails when the doc is stale.
#   scripts/update_serving_doc.sh [path/to/dse]        (DSE_DOCS_OUT=DIR writes DIR/serving.md instead)
set -euo pipefail
cd "$(dirname "$0")/.."
dse=${1:-build/dse}
for family in arrivals batching governor; do
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
' | python3 scripts/replace_doc_section.py docs/serving.md "${family}_keys"
done
echo "docs/serving.md updated" >&2
