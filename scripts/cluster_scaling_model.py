#!/usr/bin/env python3
"""The scaling model of docs/cluster.md: speedup and efficiency of a dse search under MPI, extrapolated
from costs measured at 1-4 ranks (bench/bench_cluster.py prints them).

  python3 scripts/cluster_scaling_model.py [--a-us 2.9] [--c-us 4.65] [--s-us 4.7] [--threads 32]

The defaults are what bench/bench_cluster.py measured on the 2-core machine docs/cluster.md names.

Costs, all on rank 0 and serial:
  a   per request (receive, answer, the message's own handling), microseconds
  c   per trial received from another rank (parse its result, journal it)
  s   per trial of a batch's results exchanged when the strategy learns from them (serialise, send by
      MPI_Bcast's tree, parse on every rank); the tree's log2(R) hops of latency are left out (tens of
      microseconds per batch, below s x B for any batch worth distributing)
Model, P = R x T trial slots, t = mean trial time, k = trials per request (the chunk):
  sweeps (grid, random, Sobol: nothing exchanged): rank 0 takes 1 / (c + a / k) trials/s at most from
      the other ranks, besides its own T threads' T / t, so throughput X = T / t + min((P - T) / t,
      1 / (c + a / k)); speedup X t; efficiency X t / P
  adaptive strategies (batch B = P, results exchanged every batch): a batch takes t + B s, or rank 0's
      (P - T)(c + a / k) if longer; efficiency P t / that
"""
import argparse

parser = argparse.ArgumentParser()
parser.add_argument("--a-us", type=float, default=2.9)
parser.add_argument("--c-us", type=float, default=4.65)
parser.add_argument("--s-us", type=float, default=4.7)
parser.add_argument("--threads", type=int, default=32)
args = parser.parse_args()
a, c, s, T = args.a_us * 1e-6, args.c_us * 1e-6, args.s_us * 1e-6, args.threads


def sweep(t, P, k):
    if P <= T:  # one rank: no coordinator, TBB threads only
        return P, 1.0
    X = T / t + min((P - T) / t, 1 / (c + a / k))  # rank 0's own threads, and what it can take from the rest
    return X * t, X * t / P


def adaptive(t, P, k):
    if P <= T:
        return P, 1.0
    batch_s = t + P * s              # B = P trials, one round of slots, then the exchange
    coordinator_s = (P - T) * (c + a / k)  # rank 0's serial handling of the other ranks' results
    speedup = P * t / max(batch_s, coordinator_s)
    return speedup, speedup / P


print(f"a = {args.a_us} us per request, c = {args.c_us} us per trial, s = {args.s_us} us per exchanged trial, "
      f"{T} threads per rank\n")
print("| trial time | ranks | slots | sweep, chunk 1 | sweep, chunk 16 | adaptive (batch = slots), chunk 16 |")
print("|---|---:|---:|---:|---:|---:|")
for label, t in (("50 us", 50e-6), ("410 us (FAST space)", 410e-6), ("1 s (serving)", 1.0)):
    for R in (1, 4, 16, 64, 256, 1000):
        P = R * T
        cells = []
        for model, k in ((sweep, 1), (sweep, 16), (adaptive, 16)):
            speedup, efficiency = model(t, P, k)
            cells.append(f"{speedup:,.0f}x ({100 * efficiency:.0f} %)")
        print(f"| {label} | {R} | {P:,} | " + " | ".join(cells) + " |")
for label, t in (("50 us", 50e-6), ("410 us", 410e-6), ("1 s", 1.0)):
    bound = {k: t / (c + a / k) for k in (1, 4, 16, 64)}
    print(f"\n{label} trials: rank 0 takes the results of at most " +
          ", ".join(f"{v:,.0f} other slots (chunk {k})" for k, v in bound.items()))
print("\nchunk that keeps rank 0 under its load at P slots: k >= a / (t / P - c) where t / P > c")
