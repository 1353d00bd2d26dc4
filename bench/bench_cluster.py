#!/usr/bin/env python3
"""Cluster bench (docs/cluster.md): how evenly ranks are kept busy, and what the coordinator costs.

  python3 bench/bench_cluster.py [--dse build/dse] [--mpirun mpirun] [--ranks 2 4]

1. Trials of mixed cost (configs/cluster/mixed_cost_sweep.yaml: 0.2 s or 20 s of serving, 100x apart)
   under the static split and under dynamic distribution, side by side: the least busy rank's busy
   share and the wall time, for a random sweep and for a grid whose costs alternate with the trial id
   (the grid's last parameter is the duration: under a static split of 2 ranks one gets every long trial).
2. The coordinator: its time per request and requests per trial, and the exchange per batch, for
   cheap trials (the FAST accelerator space, ~0.1 ms each) at --chunk 1 and 16; trials/s per rank count.
3. The reference in the same run: the same sweeps on one process with one thread, so the numbers
   compare across machines (machines differ 3x).
Ranks beyond the cores are oversubscribed: wall times then stretch, busy shares stay meaningful
(idle time waiting at a batch's end is idle on any machine).
"""
import argparse, json, os, subprocess, sys, tempfile, time

parser = argparse.ArgumentParser()
parser.add_argument("--dse", default="build/dse")
parser.add_argument("--mpirun", default="mpirun")
parser.add_argument("--ranks", type=int, nargs="+", default=[2, 4])
args = parser.parse_args()
env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
work = tempfile.mkdtemp(prefix="dse_bench_cluster.")


def run(ranks, config, overrides, extra=()):
    out = f"{work}/run.h5"
    command = [args.dse, "run", config, "-p", f"output={out}", "--force", "-q", "--json", "--threads", "1", *extra]
    for o in overrides:
        command += ["-p", o]
    if ranks > 1:
        command = [args.mpirun, "-n", str(ranks), "--oversubscribe", *command]
    start = time.perf_counter()
    text = subprocess.run(command, check=True, capture_output=True, text=True, env=env).stdout
    return json.loads(text), time.perf_counter() - start


mixed = "configs/cluster/mixed_cost_sweep.yaml"
sweeps = {
    "random": ["search.strategy.trials=256", "search.strategy.batch=64"],
    "grid": ["search.space={workload.serving.seed: {int: [1, 128]}, workload.serving.duration_s: {choice: [0.2, 20]}}",
             "search.strategy={name: grid, trials: 256, batch: 64, seed: 1}"],
}
print("1. Mixed-cost trials (0.2 s or 20 s of serving), 256 trials, batches of 64, one thread per rank")
print(f"{'sweep':7} {'ranks':>5} | {'least busy rank: static':>24} {'dynamic':>8} {'ratio':>6} | "
      f"{'wall s: static':>14} {'dynamic':>8} | {'one process s':>13}")
for sweep, overrides in sweeps.items():
    _, alone = run(1, mixed, overrides)
    for ranks in args.ranks:
        loads = {}
        for kind in ("static", "dynamic"):
            summary, wall = run(ranks, mixed, overrides, ["--distribution", kind])
            loads[kind] = (min(r["busy_share"] for r in summary["ranks"]), wall)
        s, d = loads["static"], loads["dynamic"]
        print(f"{sweep:7} {ranks:>5} | {100 * s[0]:>23.1f}% {100 * d[0]:>7.1f}% {d[0] / s[0]:>5.2f}x | "
              f"{s[1]:>14.2f} {d[1]:>8.2f} | {alone:>13.2f}")

print("\n2. Cheap trials (FAST EfficientNet-B0 accelerator space, 4,000 trials, batches of 256): the search's own")
print("   trials/s (not counting start-up and the result file), the coordinator's time per trial it received from")
print("   other ranks (parsing, journaling, answering) and per request, and the exchange of a batch's results")
print(f"{'strategy':16} {'ranks':>5} {'chunk':>5} | {'trials/s':>9} | {'coord. us/trial':>15} {'us/request':>10} "
      f"{'trials/request':>14} | {'exchange ms/batch':>17}")
fast = "configs/experiments/fast_efficientnet_b0.yaml"
fit_points = []  # (ranks, trials per request, us per request, exchange us per trial)
for strategy in ("random", "aging_evolution"):
    cheap = [f"search.strategy={{name: {strategy}, trials: 4000, batch: 256, seed: 1, population: 64}}"
             if strategy == "aging_evolution" else f"search.strategy={{name: {strategy}, trials: 4000, batch: 256, seed: 1}}"]
    for ranks in [1, *args.ranks]:
        for chunk in ([1] if ranks == 1 or strategy != "random" else [1, 16]):
            summary, _ = run(ranks, fast, cheap, ["--chunk", str(chunk)])
            lead = summary["ranks"][0]
            remote = sum(r["trials"] for r in summary["ranks"][1:])
            per_trial = 1e6 * lead["coordinator_s"] / remote if remote else 0.0
            per_request = 1e6 * lead["coordinator_s"] / lead["requests"] if lead["requests"] else 0.0
            per = remote / lead["requests"] if lead["requests"] else 0.0
            exchange = 1e3 * lead["exchange_s"] / max(1, lead["batches"])
            if lead["requests"]:
                fit_points.append((ranks, per, per_request, exchange * 1e3 / 256))
            print(f"{strategy:16} {ranks:>5} {chunk:>5} | {summary['trials'] / lead['wall_s']:>9.0f} | {per_trial:>15.1f} "
                  f"{per_request:>10.1f} {per:>14.1f} | {exchange:>17.2f}")
# The scaling model's costs (scripts/cluster_scaling_model.py), at 2 ranks (not oversubscribed on a
# 2-core machine; oversubscribed ranks count time descheduled as the coordinator's): rank 0's time per
# request is a + c x (trials in it); one run with single-trial requests (batches of 4) and one with
# 64-trial ones (--chunk 64) give a and c; s is the exchange per trial of the aging_evolution run.
def costs(batch, chunk):
    summary, _ = run(2, fast, [f"search.strategy={{name: random, trials: 4000, batch: {batch}, seed: 1}}"],
                     ["--chunk", str(chunk)])
    lead = summary["ranks"][0]
    remote = sum(r["trials"] for r in summary["ranks"][1:])
    return remote / lead["requests"], 1e6 * lead["coordinator_s"] / lead["requests"]
k1, u1 = costs(4, 1)
k2, u2 = costs(1024, 64)
c = (u2 - u1) / (k2 - k1)
a = u1 - c * k1
s2 = [p[3] for p in fit_points if p[0] == 2 and p[3] > 0]
print(f"\nrank 0 per request: {u1:.1f} us carrying {k1:.1f} trials, {u2:.1f} us carrying {k2:.1f}: "
      f"a = {a:.1f} us per request, c = {c:.2f} us per trial; s = {s2[0] if s2 else float('nan'):.1f} us per exchanged trial")
print(f"  python3 scripts/cluster_scaling_model.py --a-us {a:.1f} --c-us {c:.2f} --s-us {s2[0] if s2 else 0:.1f}")
print(f"\n(results of each run: {work})")
