#!/usr/bin/env python3
"""Replaces the generated section of a doc with stdin.

    replace_doc_section.py FILE NAME < body

The section lies between the lines `<!-- NAME:begin -->` and `<!-- NAME:end -->`; exits 2 if FILE
lacks either marker or stdin is empty (the generating command failed), leaving FILE as it was.

With DSE_DOCS_OUT=DIR in the environment the tracked FILE is left alone: the result goes to
DIR/basename(FILE), starting from that file when an earlier section already went there (a script
that fills several sections of one doc), else from FILE. The doc generators in scripts/ all write
through here, so `DSE_DOCS_OUT=/tmp/docs scripts/update_validation_doc.sh` regenerates elsewhere.
"""
import os
import sys


def fail(message):
    print(f"replace_doc_section.py: {message}", file=sys.stderr)
    sys.exit(2)


path, name = sys.argv[1], sys.argv[2]
body = sys.stdin.read().rstrip("\n")
if not body.strip():
    fail(f"{path}: nothing on stdin for the '{name}' section; left unchanged")
begin, end = f"<!-- {name}:begin -->", f"<!-- {name}:end -->"
target = path
if os.environ.get("DSE_DOCS_OUT"):
    os.makedirs(os.environ["DSE_DOCS_OUT"], exist_ok=True)
    target = os.path.join(os.environ["DSE_DOCS_OUT"], os.path.basename(path))
text = open(target if os.path.exists(target) else path).read()
start, stop = text.find(begin), text.find(end)
if start < 0 or stop < start:
    fail(f"{path}: expected the markers '{begin}' and '{end}' around the generated section")
open(target, "w").write(text[: start + len(begin)] + "\n" + body + "\n" + text[stop:])
