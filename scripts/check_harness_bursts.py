#!/usr/bin/python3
"""Do NeuSight's timed kernels run before the power limiter holds them?

NeuSight's collector (trsharm25/NeuSight, neusight/Dataset/collect.py) times each op 25 times, one
synchronised call at a time, and keeps the mean of the 5 fastest. If each op's timing started from
an idle GPU, the firmware, which holds the power averaged over its window W (NVML: 1/6 s to 1 s,
depending on the product), would let the first calls run at the boost clock until the window's
energy is spent: for tau = W x (limit - idle) / (P_boost - idle) seconds. A row whose 5 fastest
calls fit in tau would then be timed at the boost clock, not at the clock the limit holds in a
loop (dse's model of a kernel timed on its own).

Reads a predictions CSV (`dse validate kernels ... --predictions P.csv`: clock_mhz, power_w at the
held clock, power_at_boost_w, idle_w) and prints, per GPU and op, dse's MAPE beside the MAPE if every
held row were timed that way (the kernel time scaled by clock / boost, an upper bound of the
speed-up: held kernels are compute-bound), for each window; then the median of measured / predicted
kernel time (the floor taken off both) by the predicted kernel time, beside clock / boost, the
ratio a burst at the boost clock would show. Nothing is fitted. (Whether single rows were timed at
the boost clock, a state rather than a burst, is `dse validate kernels`' clock-state table.)
  scripts/check_harness_bursts.py P.csv [--floor-us 26.8] [--windows 0.1667 1]"""
import argparse
import bisect
import csv
import math
import statistics
import sys
from pathlib import Path

import yaml

RUNS, FASTEST = 25, 5


def boost_mhz(device, specs):
    with open(specs / f"{device}.yaml") as f:
        return float(yaml.safe_load(f)["clocks_mhz"]["boost"])


def burst_ms(row, floor_ms, boost, window_s):
    """The mean of the 5 fastest of 25 calls from an idle GPU, or dse's time where the row is not held."""
    predicted = float(row["predicted_ms"])
    clock = float(row["clock_mhz"])
    if clock >= boost - 0.5:
        return predicted, False
    limit, idle, at_boost = float(row["power_w"]), float(row["idle_w"]), float(row["power_at_boost_w"])
    held = predicted - floor_ms
    fast = held * clock / boost
    tau_ms = window_s * 1e3 * (limit - idle) / max(at_boost - idle, 1e-9)
    calls = min(RUNS, math.floor(tau_ms / fast)) if fast > 0 else RUNS
    if calls >= FASTEST:
        return floor_ms + fast, True
    return floor_ms + (calls * fast + (FASTEST - calls) * held) / FASTEST, False


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("predictions")
    ap.add_argument("--floor-us", type=float, default=26.8, help="the harness floor in each row (timing_floor_us)")
    ap.add_argument("--windows", type=float, nargs="*", default=[1 / 6, 1.0], help="firmware windows, seconds")
    ap.add_argument("--ops", nargs="*", default=["linear", "bmm"])
    ap.add_argument("--specs", default=str(Path(__file__).resolve().parent.parent / "configs/hardware/gpu"))
    args = ap.parse_args(argv)
    with open(args.predictions) as f:
        rows = list(csv.DictReader(f))
    if rows and "power_at_boost_w" not in rows[0]:
        sys.exit(f"{args.predictions}: expected a column 'power_at_boost_w' (written by dse validate kernels --predictions)")
    floor = args.floor_us * 1e-3
    head = " ".join(f"{f'W={w:.3g} s %':>10} {'at boost':>9}" for w in args.windows)
    print(f"{'GPU':16} {'op':8} {'rows':>5} {'held':>5} {'dse %':>6} {head}")
    for gpu in sorted({r["device"] for r in rows}):
        boost = boost_mhz(gpu, Path(args.specs))
        for op in args.ops:
            sel = [r for r in rows if r["device"] == gpu and r["op"] == op]
            if not sel:
                continue
            measured = [float(r["measured_ms"]) for r in sel]
            dse = sum(abs(float(r["predicted_ms"]) / m - 1) for r, m in zip(sel, measured)) / len(sel) * 100
            held = sum(float(r["clock_mhz"]) < boost - 0.5 for r in sel)
            cells = []
            for w in args.windows:
                bursts = [burst_ms(r, floor, boost, w) for r in sel]
                mape = sum(abs(b / m - 1) for (b, _), m in zip(bursts, measured)) / len(sel) * 100
                cells.append(f"{mape:10.1f} {sum(at for _, at in bursts):9d}")
            print(f"{gpu:16} {op:8} {len(sel):5d} {held:5d} {dse:6.1f} {' '.join(cells)}")
    edges = [0.1, 1, 10, 100]
    names = ["< 0.1 ms", "0.1-1 ms", "1-10 ms", "10-100 ms", ">= 100 ms"]
    print(f"\nmedian measured / predicted kernel time (clock / boost, what a burst would show), by predicted time")
    print(f"{'GPU':16} {'op':8} " + " ".join(f"{n:>16}" for n in names))
    for gpu in sorted({r["device"] for r in rows}):
        boost = boost_mhz(gpu, Path(args.specs))
        for op in args.ops:
            bins = [[] for _ in names]
            for r in rows:
                if r["device"] != gpu or r["op"] != op:
                    continue
                predicted, measured = float(r["predicted_ms"]) - floor, float(r["measured_ms"]) - floor
                if predicted > 0 and measured > 0:
                    bins[bisect.bisect(edges, predicted)].append((measured / predicted, float(r["clock_mhz"]) / boost))
            if any(bins):
                cells = [f"{statistics.median(x for x, _ in b):.2f} ({statistics.median(c for _, c in b):.2f})"
                         if b else "" for b in bins]
                print(f"{gpu:16} {op:8} " + " ".join(f"{c:>16}" for c in cells))


if __name__ == "__main__":
    main(sys.argv[1:])
