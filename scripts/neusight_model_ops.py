#!/usr/bin/env python3
"""Extracts the FP32 linear, batched-matmul, layer-norm and softmax ops that NeuSight timed inside
its models (scripts/asplos/label/<GPU>/<model>-<mode>-<seq>-<batch>.csv: one row per torch.fx node
with its input shapes and forward latency in ms) as dse kernel-measurement CSVs
(tests/data/neusight/model_ops, read by `dse validate kernels`).

    scripts/neusight_model_ops.py NEUSIGHT_REPO_DIR OUT_DIR [E2E_LABELS.csv]

NEUSIGHT_REPO_DIR is a checkout of github.com/trsharm25/NeuSight (commit db1fdc9 for the files in
the repository). Per GPU it writes <gpu>_gemm.csv (OPName, Latency, Device, Model, Node, B, M, N, K
in NeuSight's convention: linear is [B*M, N] x [N, K], bmm [B, M, N] x [B, N, K]) and
<gpu>_rows.csv (B rows of H elements). A training file's forward latency (fw_latency) is a forward
pass like an inference file's. Only the standard library: the fx node's shapes are Python literals.

It also writes e2e_labels.csv: each trace's whole-model latency (the <model>.json beside it: layers,
e2e, forward and backward ms), in the format of tests/data/neusight/e2e_labels.csv, for the GPUs that
file (E2E_LABELS.csv, when given) has no rows for.
"""
import json
import ast
import csv
import os
import re
import sys

GEMM_HEADER = ["OPName", "Latency", "Device", "Model", "Node", "B", "M", "N", "K"]
ROWS_HEADER = ["OPName", "Latency", "Device", "Model", "Node", "B", "H"]


def product(values):
    out = 1
    for v in values:
        out *= v
    return out


def module_class(meta):
    classes = re.findall(r"<class '([^']+)'>", meta)
    return classes[-1] if classes else ""


def op_of(row):
    """(kind, shape tuple) for the ops dse validates, or None."""
    try:
        inputs = ast.literal_eval(row["input_shapes"]) if row["input_shapes"] else []
        output = ast.literal_eval(row["output_shape"]) if row["output_shape"] else ()
    except (ValueError, SyntaxError):
        return None
    target = row["target"]
    if row["op"] == "call_module":
        cls = module_class(row["meta"])
        if cls.endswith(".Linear") and inputs and isinstance(output, tuple) and output:
            x = inputs[0]
            return "linear", (1, product(x[:-1]), x[-1], output[-1])
        if cls.endswith(".LayerNorm") and inputs:
            x = inputs[0]
            return "ln", (product(x[:-1]), x[-1])
        if cls.endswith(".Softmax") and inputs:
            x = inputs[0]
            return "softmax", (product(x[:-1]), x[-1])
        return None
    if row["op"] != "call_function":
        return None
    if "addmm" in target and len(inputs) == 3 and len(inputs[1]) == 2:  # GPT-2's Conv1D: bias, x, weight
        (m, k), (_, n) = inputs[1], inputs[2]
        return "linear", (1, m, k, n)
    if ("matmul" in target or "method bmm" in target) and len(inputs) == 2 and len(inputs[0]) >= 3:
        a, b = inputs
        if len(b) < 2 or a[-1] != b[-2]:
            return None
        return "bmm", (product(a[:-2]), a[-2], a[-1], b[-1])
    if "softmax" in target and inputs:
        x = inputs[0]
        return "softmax", (product(x[:-1]), x[-1])
    return None


def main(repo, out_dir, e2e_labels=None):
    label_root = os.path.join(repo, "scripts", "asplos", "label")
    os.makedirs(out_dir, exist_ok=True)
    known = set()
    if e2e_labels:
        with open(e2e_labels, newline="") as f:
            known = {row[0] for row in csv.reader(f)}
    e2e = []
    for gpu in sorted(os.listdir(label_root)):
        if gpu.startswith("AMD"):
            continue  # dse has no AMD specs
        device = gpu.replace("_", " ")  # the label folders are torch.cuda.get_device_name() with _ for spaces
        gemm, rows = [], []
        folder = os.path.join(label_root, gpu)
        for name in sorted(os.listdir(folder)) if gpu not in known else []:
            if name.endswith(".json") and os.path.getsize(os.path.join(folder, name)) > 0:
                with open(os.path.join(folder, name)) as f:
                    j = json.load(f)
                e2e.append([gpu, name[:-5], j["num_layer"], j["e2e_latency"], j["fw_latency"], j["bwall_latency"]])
        for name in sorted(os.listdir(folder)):
            path = os.path.join(folder, name)
            if not name.endswith(".csv") or os.path.getsize(path) == 0:
                continue
            model = name[:-4]
            with open(path, newline="") as f:
                for row in csv.DictReader(f):
                    if row.get("dtype") != "torch.float32":
                        continue
                    latency = float(row.get("fw_latency") or 0)
                    found = op_of(row)
                    if latency <= 0 or not found:
                        continue
                    kind, shape = found
                    if any(v < 1 for v in shape):
                        continue
                    line = [kind, f"{latency:.6g}", device, model, row["Name"], *shape]
                    (gemm if kind in ("linear", "bmm") else rows).append(line)
        slug = re.sub(r"[^a-z0-9]+", "_", device.lower()).strip("_")
        for suffix, header, lines in (("gemm", GEMM_HEADER, gemm), ("rows", ROWS_HEADER, rows)):
            if not lines:
                continue
            with open(os.path.join(out_dir, f"{slug}_{suffix}.csv"), "w", newline="") as f:
                writer = csv.writer(f)
                writer.writerow(header)
                writer.writerows(lines)
            print(f"{slug}_{suffix}.csv: {len(lines)} rows", file=sys.stderr)
    with open(os.path.join(out_dir, "e2e_labels.csv"), "w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["device", "config(model-mode-seq-batch[-parallelism])", "num_layer", "e2e_latency_ms",
                         "fw_latency_ms", "bwall_latency_ms"])
        writer.writerows(e2e)
    print(f"e2e_labels.csv: {len(e2e)} rows", file=sys.stderr)


if __name__ == "__main__":
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    main(*sys.argv[1:])
