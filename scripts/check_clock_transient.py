#!/usr/bin/python3
"""Does a clock that starts high and settles explain dse's kernel errors on power-limited GPUs?

Reads a predictions CSV (`dse validate kernels ... --predictions P.csv`) and, per GPU and op, tries
a duration-dependent clock: a timed op runs at boost for a budget of b seconds of its kernel time
(the power limiter's reaction: it averages power over a window before it pulls the clock down) and
at dse's steady clock after that, so its kernel time shrinks by the share min(1, b / t) run at
boost, times (1 - steady / boost) for a compute-bound kernel. b is searched from 10 us to 1 s per
GPU and op, and each GPU's steady-state time may be rescaled (0.8-1.25x) with it, so a refit of the
level is allowed for. Prints the MAPE with the best b against dse's.
  scripts/check_clock_transient.py P.csv [--floor-us 24.4] [--clocks GPU=STEADY/BOOST ...]
The clocks default to an SGEMM's under the default calibration (docs/validation.md, `dse validate
kernels` prints them)."""
import argparse
import csv
import sys

import numpy as np

SGEMM_CLOCKS = {"a100_pcie_40gb": (1280, 1410), "l4": (1010, 2040), "p100_pcie": (1159, 1303),
                "p4": (830, 1063), "t4": (846, 1590), "v100_pcie": (1380, 1380)}


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("predictions")
    ap.add_argument("--floor-us", type=float, default=24.4, help="the harness floor in each row (timing_floor_us)")
    ap.add_argument("--clocks", nargs="*", default=[], help="GPU=STEADY/BOOST in MHz, overriding the defaults")
    ap.add_argument("--ops", nargs="*", default=["linear", "bmm"])
    args = ap.parse_args(argv)
    clocks = dict(SGEMM_CLOCKS)
    for item in args.clocks:
        gpu, pair = item.split("=")
        steady, boost = pair.split("/")
        clocks[gpu] = (float(steady), float(boost))
    with open(args.predictions) as f:
        rows = list(csv.DictReader(f))
    floor = args.floor_us * 1e-3
    print(f"{'GPU':16} {'op':8} {'rows':>5} {'dse MAPE %':>11} {'best MAPE %':>12} {'budget ms':>10} {'level':>6}")
    for gpu in sorted({r["device"] for r in rows}):
        if gpu not in clocks:
            continue
        steady, boost = clocks[gpu]
        for op in args.ops:
            sel = [r for r in rows if r["device"] == gpu and r["op"] == op]
            if not sel:
                continue
            measured = np.array([float(r["measured_ms"]) for r in sel])
            predicted = np.array([float(r["predicted_ms"]) for r in sel])
            base = np.mean(np.abs(predicted / measured - 1)) * 100
            best = (base, 0.0, 1.0)
            for budget_ms in np.exp(np.linspace(np.log(0.01), np.log(1000), 81)):
                for level in np.linspace(0.8, 1.25, 46):
                    kernel = (predicted - floor) * level
                    share = np.minimum(1, budget_ms / np.maximum(kernel, 1e-9))
                    new = floor + kernel * (share * steady / boost + 1 - share)
                    mape = np.mean(np.abs(new / measured - 1)) * 100
                    if mape < best[0]:
                        best = (mape, budget_ms, level)
            print(f"{gpu:16} {op:8} {len(sel):5d} {base:11.1f} {best[0]:12.1f} {best[1]:10.3g} {best[2]:6.2f}")


if __name__ == "__main__":
    main(sys.argv[1:])
