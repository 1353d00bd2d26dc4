#!/usr/bin/env bash
# Regenerates the metric table in docs/metrics.md from `dse list metrics` (sim/metrics/metric_catalog.cpp).
#   scripts/update_metrics_doc.sh [path/to/dse]        (DSE_DOCS_OUT=DIR writes DIR/metrics.md instead)
set -euo pipefail
cd "$(dirname "$0")/.."
dse=${1:-build/dse}
"$dse" list metrics --json -q | python3 -c '
import json, sys
entries = json.load(sys.stdin)["families"]["metric"]["entries"]
print("| metric | unit | meaning (device kinds that report it) |")
print("|---|---|---|")
for e in entries:
    print("| `%s` | %s | %s |" % (e["name"], e["unit"], e["description"]))
' | python3 scripts/replace_doc_section.py docs/metrics.md metrics
echo "docs/metrics.md updated" >&2
