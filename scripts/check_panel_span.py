#!/usr/bin/python3
"""Do linear layers slow down when the operand panels an SM's resident blocks walk span more address
space than the L1 TLB covers?

Reads a predictions CSV (`dse validate kernels ... --predictions P.csv`) and the NeuSight linear
rows it came from (for each measured kernel's threads per block). For every linear row on a kernel
named PxQ it takes the panels the SM's resident blocks walk: P + Q rows of A and B, each a row of
the reduction length N in FP32, times the blocks resident per SM (threads, blocks and registers per
SM; 128 registers per thread for 32 or more outputs per thread, 64 below: an assumption, the
kernels' registers are not in the data). Jia et al. ("Dissecting the NVIDIA Volta GPU Architecture
via Microbenchmarking", arXiv 1804.06826; the T4 report, arXiv 1903.07486) give the P100, P4, V100
and T4 an L1 TLB that covers 32 MiB.
Prints, per GPU, the geometric-mean bias of dse's prediction by that span, then the slowdown
1 + a x max(0, 1 - 32 MiB / span) fitted per GPU (a from 0 to 4) with the MAPE of linear rows before
and after, and held out: each GPU with the median a of the other five.
  scripts/check_panel_span.py P.csv tests/data/neusight/test_linear.csv [--coverage-mib 32]"""
import argparse
import csv
import math
import re
import statistics
import sys

# Per-SM limits (CUDA programming guide, compute capability table): threads, blocks, 32-bit registers.
SM_LIMITS = {"a100_pcie_40gb": (2048, 32, 65536), "v100_pcie": (2048, 32, 65536), "t4": (1024, 16, 65536),
             "l4": (1536, 24, 65536), "p100_pcie": (2048, 32, 65536), "p4": (2048, 32, 65536)}
BINS = [8, 16, 32, 64, 128, 256, math.inf]


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("predictions")
    ap.add_argument("linear_csv", help="the NeuSight linear rows (Kernel Name, Block x)")
    ap.add_argument("--coverage-mib", type=float, default=32.0)
    args = ap.parse_args(argv)
    threads = {}
    with open(args.linear_csv) as f:
        for r in csv.DictReader(f):
            threads[r["Kernel Name"]] = int(r["Block x"])
    rows = {}
    with open(args.predictions) as f:
        for r in csv.DictReader(f):
            if r["op"] != "linear" or r["device"] not in SM_LIMITS:
                continue
            ratio = float(r["predicted_ms"]) / float(r["measured_ms"])
            span = 0.0
            m = re.search(r"sgemm_(\d+)x(\d+)", r["measured_kernel"])
            if m and r["measured_kernel"] in threads:
                p, q = int(m.group(1)), int(m.group(2))
                block = threads[r["measured_kernel"]]
                outputs = p * q / block * (4 if "sliced" in r["measured_kernel"] else 1)
                registers = 128 if outputs >= 32 else 64
                max_threads, max_blocks, max_registers = SM_LIMITS[r["device"]]
                resident = min(max_blocks, max_threads // block, max_registers // (block * registers))
                span = resident * (p + q) * int(r["n"]) * 4 / 2**20
            rows.setdefault(r["device"], []).append((ratio, span))

    print("geometric-mean error % of dse's prediction by the span the resident blocks' panels walk (MiB per SM):")
    print(f"{'GPU':16} " + " ".join(f"{'<' + format(b, 'g') if b < math.inf else '>=256':>12}" for b in BINS))
    for gpu, items in sorted(rows.items()):
        cells = []
        low = 0
        for b in BINS:
            logs = [math.log(r) for r, s in items if low <= s < b]
            cells.append(f"{len(logs):4d} {100 * (math.exp(sum(logs) / len(logs)) - 1):+6.1f}" if logs else " " * 11 + "-")
            low = b
        print(f"{gpu:16} " + " ".join(f"{c:>12}" for c in cells))

    def mape(items, a):
        return 100 * statistics.fmean(abs(r * (1 + a * max(0.0, 1 - args.coverage_mib / s)) - 1) if s > 0 else abs(r - 1)
                                      for r, s in items)

    best = {gpu: min((mape(items, a / 100), a / 100) for a in range(0, 401, 2))[1] for gpu, items in rows.items()}
    print(f"\nslowdown 1 + a x max(0, 1 - {args.coverage_mib:g} MiB / span), linear MAPE %:")
    print(f"{'GPU':16} {'dse':>6} {'a':>6} {'fitted':>7} {'a held out':>11} {'held out':>9}")
    for gpu, items in sorted(rows.items()):
        others = statistics.median(a for g, a in best.items() if g != gpu)
        print(f"{gpu:16} {mape(items, 0):6.1f} {best[gpu]:6.2f} {mape(items, best[gpu]):7.1f} {others:11.2f} "
              f"{mape(items, others):9.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
