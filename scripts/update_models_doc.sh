#!/usr/bin/env bash
# Regenerates the published-vs-computed table in docs/models.md from `dse models check`.
#   scripts/update_models_doc.sh [path/to/dse]
set -euo pipefail
cd "$(dirname "$0")/.."
dse=${1:-build/dse}
table=$("$dse" models check)
printf '%s\n' "$table" | python3 scripts/replace_doc_section.py docs/models.md models-check
echo "docs/models.md updated" >&2
