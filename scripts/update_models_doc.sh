#!/usr/bin/env bash
# Regenerates the published-vs-computed table in docs/models.md from `dse models check`.
#   scripts/update_models_doc.sh [path/to/dse]
set -euo pipefail
cd "$(dirname "$0")/.."
dse=${1:-build/dse}
table=$("$dse" models check)
python3 - "$table" <<'PY'
import sys, re
table = sys.argv[1].rstrip("\n")
path = "docs/models.md"
text = open(path).read()
begin, end = "<!-- models-check:begin -->", "<!-- models-check:end -->"
new = re.sub(re.escape(begin) + ".*?" + re.escape(end), begin + "\n" + table + "\n" + end, text, flags=re.S)
open(path, "w").write(new)
PY
echo "docs/models.md updated" >&2
