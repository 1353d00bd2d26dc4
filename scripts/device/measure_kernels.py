#!/usr/bin/env python3
"""Times NeuSight's kernel shapes on the GPU of this machine, in NeuSight's CSV format, so that
`dse validate kernels OUT/test_linear.csv ...` checks the kernel and power models on a GPU the fit
never saw (the six in tests/data/neusight are the fit's).

    python3 scripts/device/measure_kernels.py OUT_DIR [--linear 300] [--bmm 300] [--seed 17]

Shapes: a seeded sample of the distinct (B, M, N, K) of tests/data/neusight/test_linear.csv and
test_bmm.csv, and every distinct (B, H) of test_ln.csv and test_softmax.csv. FP32 as NeuSight
measured (PyTorch's defaults: no TF32 for matmul), the same op shapes dse builds from a row
(hwcal/measured_op.cpp measured_op_graph): linear is x[B*M, N] @ W[K, N]^T + bias, bmm
a[B, M, N] @ b[B, N, K], ln and softmax over the last axis of x[B, H].
Timing as NeuSight's collector (time_ms): each call alone between two CUDA events, the mean of the
fastest 5 of 25 (inputs of ln and softmax zeros, as there). One torch.profiler pass over every shape names the kernels and their
grids (informational columns; dse does not read them). Observes only: never sets clocks or limits.
Writes OUT_DIR/test_{linear,bmm,ln,softmax}.csv and OUT_DIR/kernels_meta.json."""
import argparse
import csv
import json
import random
import sys
import time
from pathlib import Path

import torch

HERE = Path(__file__).resolve().parent
DATA = HERE.parent.parent / "tests" / "data" / "neusight"
GEMM_HEADER = ["OPName", "Latency", "Device", "Torch Version", "CUDNN Version", "Kernel Name", "Warps per SM",
               "Blocks per SM", "Grid x", "Grid y", "Grid z", "Block x", "Block y", "Block z", "CUDA Version",
               "Kernels", "B", "M", "N", "K"]
ROW_HEADER = GEMM_HEADER[:15] + ["B", "H", "large"]


def distinct_shapes(op, keys):
    with open(DATA / f"test_{op}.csv") as f:
        rows = list(csv.DictReader(f))
    shapes = sorted({tuple(int(r[k]) for k in keys) for r in rows})
    large = {tuple(int(r[k]) for k in keys): r.get("large", "") for r in rows}
    return shapes, large


def make_call(op, shape):
    dev = "cuda"
    if op == "linear":
        b, m, n, k = shape
        x = torch.randn(b * m, n, device=dev)
        w = torch.randn(k, n, device=dev)
        bias = torch.randn(k, device=dev)
        return lambda: torch.nn.functional.linear(x, w, bias)
    if op == "bmm":
        b, m, n, k = shape
        x = torch.randn(b, m, n, device=dev)
        y = torch.randn(b, n, k, device=dev)
        return lambda: torch.bmm(x, y)
    b, h = shape
    x = torch.zeros(b, h, device=dev)  # NeuSight's vector-op inputs are zeros
    if op == "ln":
        weight, bias = torch.ones(h, device=dev), torch.zeros(h, device=dev)
        return lambda: torch.nn.functional.layer_norm(x, (h,), weight, bias)
    return lambda: torch.softmax(x, dim=-1)


def time_ms(call):
    """NeuSight's timing (neusight/Dataset/collect.py, measure_once and profile_kernel): each call
    alone between two CUDA events and a synchronize, 25 calls, the mean of the fastest 5, so a short
    kernel's time holds the launch gap a single timed op pays, as in the rows dse was fitted to.
    A call of over 2 ms (where the gap is lost in the kernel's time) is timed 5 to 25 times, about
    0.1 s, the mean of the fastest fifth: to fit a device lease."""
    start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)

    def once():
        start.record()
        call()
        stop.record()
        torch.cuda.synchronize()
        return start.elapsed_time(stop)

    first = once()
    calls = 25 if first < 2.0 else max(5, min(25, int(100.0 / first)))
    times = sorted(once() for _ in range(calls))
    fastest = times[:max(1, calls // 5)]
    return sum(fastest) / len(fastest), calls


def kernels_by_label(trace_path):
    """label -> [(kernel name, grid, block)] from a Chrome trace of torch.profiler: a kernel belongs
    to the record_function label whose CPU interval holds the runtime call that launched it."""
    events = json.loads(Path(trace_path).read_text())["traceEvents"]
    labels = sorted((e["ts"], e["ts"] + e.get("dur", 0), e["name"]) for e in events
                    if e.get("cat") == "user_annotation" and e["name"].startswith("dse:"))
    launch_label = {}
    for e in events:
        if e.get("cat") == "cuda_runtime" and "correlation" in e.get("args", {}):
            for begin, end, name in labels:
                if begin <= e["ts"] <= end:
                    launch_label[e["args"]["correlation"]] = name
                    break
    out = {}
    for e in sorted((e for e in events if e.get("cat") == "kernel"), key=lambda e: e["ts"]):
        label = launch_label.get(e.get("args", {}).get("correlation"))
        if label:
            out.setdefault(label, []).append((e["name"], e["args"].get("grid", [0, 0, 0]),
                                              e["args"].get("block", [0, 0, 0])))
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out")
    parser.add_argument("--linear", type=int, default=300)
    parser.add_argument("--bmm", type=int, default=300)
    parser.add_argument("--seed", type=int, default=17)
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    torch.backends.cuda.matmul.allow_tf32 = False  # NeuSight's rows are FP32 SGEMMs
    props = torch.cuda.get_device_properties(0)
    device = torch.cuda.get_device_name(0)
    rng = random.Random(args.seed)
    plan = {}
    for op, keys, sample in (("linear", "BMNK", args.linear), ("bmm", "BMNK", args.bmm), ("ln", "BH", None),
                             ("softmax", "BH", None)):
        shapes, large = distinct_shapes(op, keys)
        if sample is not None and sample < len(shapes):
            shapes = sorted(rng.sample(shapes, sample))
        plan[op] = (shapes, large)

    measured = {op: [] for op in plan}
    began = time.time()
    for op, (shapes, _) in plan.items():
        for shape in shapes:
            try:
                call = make_call(op, shape)
                ms, calls = time_ms(call)
                measured[op].append((shape, ms, calls))
            except torch.cuda.OutOfMemoryError:
                print(f"measure_kernels: {op} {shape}: out of memory, skipped", file=sys.stderr)
            torch.cuda.empty_cache()
        print(f"measure_kernels: {op}: {len(measured[op])} shapes, {time.time() - began:.0f} s", file=sys.stderr)

    kernels = {}
    try:
        trace = out / "kernels_trace.json"
        with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU,
                                                torch.profiler.ProfilerActivity.CUDA]) as prof:
            for op, rows in measured.items():
                for shape, _, _ in rows:
                    call = make_call(op, shape)
                    torch.cuda.synchronize()
                    with torch.profiler.record_function(f"dse:{op}:{'x'.join(map(str, shape))}"):
                        call()
                    torch.cuda.synchronize()
                    del call
                    torch.cuda.empty_cache()
        prof.export_chrome_trace(str(trace))
        kernels = kernels_by_label(trace)
        trace.unlink()
    except Exception as error:  # names are informational: keep the timings without them
        print(f"measure_kernels: profiler pass failed ({error}); kernel names left n/a", file=sys.stderr)

    versions = dict(torch=f"p{torch.__version__.split('+')[0]}", cudnn=str(torch.backends.cudnn.version()),
                    cuda=f"cu{(torch.version.cuda or '').replace('.', '')}")
    for op, rows in measured.items():
        gemm = op in ("linear", "bmm")
        with open(out / f"test_{op}.csv", "w", newline="") as f:
            writer = csv.writer(f)
            writer.writerow(GEMM_HEADER if gemm else ROW_HEADER)
            for shape, ms, _ in rows:
                launched = kernels.get(f"dse:{op}:{'x'.join(map(str, shape))}", [])
                # The row's kernel is the longest-named GEMM/main kernel: the first one launched.
                name, grid, block = launched[0] if launched else ("n/a", [1, 1, 1], [1, 1, 1])
                blocks = grid[0] * grid[1] * grid[2]
                threads = blocks * block[0] * block[1] * block[2]
                cells = [op, f"{ms:.6f}", device, versions["torch"], versions["cudnn"], name,
                         f"{threads / 32 / props.multi_processor_count:.4f}",
                         f"{blocks / props.multi_processor_count:.4f}", *grid, *block, versions["cuda"]]
                if gemm:
                    writer.writerow(cells + [";" + ";".join(k[0] for k in launched), *shape])
                else:
                    writer.writerow(cells + [*shape, plan[op][1].get(shape, "")])
    meta = {"device": device, "sms": props.multi_processor_count, "seed": args.seed, **versions,
            "shapes": {op: len(rows) for op, rows in measured.items()},
            "kernels_named": sum(1 for op, rows in measured.items() for s, _, _ in rows
                                 if f"dse:{op}:{'x'.join(map(str, s))}" in kernels),
            "seconds": round(time.time() - began, 1)}
    (out / "kernels_meta.json").write_text(json.dumps(meta, indent=2) + "\n")
    print(json.dumps(meta))


if __name__ == "__main__":
    main()
