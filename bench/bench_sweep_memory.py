#!/usr/bin/env python3
"""Peak memory and post-processing time against trial count (docs/cluster.md): a random sweep of the
FAST EfficientNet-B0 accelerator space on one process, at each trial count, under /usr/bin/time.

  python3 bench/bench_sweep_memory.py [--dse build/dse] [--trials 10000 100000 1000000]

Prints per count: the search's wall time and trials/s (search_wall_s of the JSON summary), the
post-processing time (postprocess_s: the result file, best config and summary after the trials) and
its share of the search, and the peak resident memory with its growth per trial over the smallest
count. Targets: post-processing under a tenth of the search, a million trials under 2 GB.
A million trials take about six minutes on one 2-core machine; the default stops at 100,000.
"""
import argparse, json, os, re, subprocess, tempfile

parser = argparse.ArgumentParser()
parser.add_argument("--dse", default="build/dse")
parser.add_argument("--trials", type=int, nargs="+", default=[10000, 100000])
args = parser.parse_args()
work = tempfile.mkdtemp(prefix="dse_bench_sweep_memory.")
print(f"{'trials':>9} | {'search s':>9} {'trials/s':>9} | {'post s':>7} {'post/search':>11} | {'peak RSS MiB':>12} "
      f"{'KiB/trial':>9}")
first = None
for n in args.trials:
    command = ["/usr/bin/time", "-f", "maxrss_kb %M", args.dse, "run", "configs/experiments/fast_efficientnet_b0.yaml",
               "-p", f"search.strategy={{name: random, trials: {n}, batch: 1024, seed: 1}}",
               "-p", f"output={work}/sweep_{n}.h5", "--force", "-q", "--json"]
    done = subprocess.run(command, check=True, capture_output=True, text=True)
    summary = json.loads(done.stdout)
    rss_kib = int(re.search(r"maxrss_kb (\d+)", done.stderr).group(1))
    search, post = summary["search_wall_s"], summary["postprocess_s"]
    growth = "" if first is None else f"{(rss_kib - first[1]) / (n - first[0]):9.2f}"
    if first is None:
        first = (n, rss_kib)
    print(f"{n:>9,} | {search:>9.1f} {n / search:>9.0f} | {post:>7.2f} {post / search:>10.1%} | "
          f"{rss_kib / 1024:>12.0f} {growth:>9}")
    for suffix in (".h5", ".journal.jsonl", ".best.yaml"):
        os.remove(f"{work}/sweep_{n}{suffix}")
