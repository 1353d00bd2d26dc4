#!/usr/bin/env python3
"""The tables of docs/batch_dvfs.md from the studies' CSVs.

  scripts/batch_dvfs_tables.py study [results/batch_dvfs_study.csv]    # section 2: throughput vs BatchDVFS
  scripts/batch_dvfs_tables.py slo [results/serving_slo_study.csv]     # section 4: power cap and SLO

Prints Markdown for pasting over the table of the same name (scripts/batch_dvfs_study.sh and
scripts/serving_slo_study.sh write the CSVs).
"""
import csv
import math
import sys
from collections import defaultdict

GOVERNORS = ["batch_dvfs", "clipper_power", "dvfs_only", "dvfs_only_b1", "model_based", "best_static", "bobd"]


def study(path):
    rows = list(csv.DictReader(open(path)))
    by = {(r["model"], int(r["cap_w"]), r["governor"]): r for r in rows}
    models = sorted({r["model"] for r in rows})
    caps = sorted({int(r["cap_w"]) for r in rows})
    out = ["| cap W | " + " | ".join(GOVERNORS) + " |", "|---" * (len(GOVERNORS) + 1) + "|"]
    for cap in caps:
        cells = []
        for g in GOVERNORS:
            # A search that found no setting within the cap (nan) is left out of the means and counted.
            ratios = [float(by[(m, cap, g)]["throughput_per_s"]) / float(by[(m, cap, "batch_dvfs")]["throughput_per_s"])
                      for m in models]
            over = [float(by[(m, cap, g)]["batches_over_cap_share"]) for m in models]
            found = [x for x in ratios if not math.isnan(x)]
            over = [x for x in over if not math.isnan(x)]
            geo = math.exp(sum(math.log(x) for x in found) / len(found))
            none = len(ratios) - len(found)
            cells.append(f"{geo:.2f}× ({100 * sum(over) / len(over):.0f} %)" + (f", {none} none" if none else ""))
        out.append(f"| {cap} | " + " | ".join(cells) + " |")
    out.append("")

    def ratios(a, b):  # cells where both found a setting
        v = [float(by[(m, c, a)]["throughput_per_s"]) / float(by[(m, c, b)]["throughput_per_s"])
             for m in models for c in caps]
        return [x for x in v if not math.isnan(x)]

    def summary(a, b, v):
        return f"{a} / {b}: mean {sum(v) / len(v):.3f}, min {min(v):.3f}, max {max(v):.3f}"

    out.append(summary("model_based", "best_static", ratios("model_based", "best_static")) +
               f" over {len(models) * len(caps)} cells;")
    v = ratios("bobd", "best_static")
    found = sum(1 for x in v if x >= 0.9995)
    out.append(summary("bobd", "best_static", v) + f" (the grid's optimum found in {found} of {len(v)} cells)")
    return out


GPU = {"p40": "P40", "h100_sxm": "H100", "h200": "H200"}
MODEL = {"resnet50": "ResNet-50", "bert_base": "BERT-base"}
SLO_GOVERNORS = ["batch_dvfs", "clipper_power", "dvfs_only", "model_based", "best_static"]


def percent(share):
    v = 100 * share
    if v < 0.005:
        return "< 0.01"
    return f"{v:.0f}" if v >= 10 else (f"{v:.1f}" if v >= 0.05 else f"{v:.2f}")


def slo_cell(r):
    energy = float(r["energy_per_inference_j"])
    if math.isnan(energy):
        return "none meets the SLO"
    p99 = float(r["latency_p99_ms"])
    p99_text = (f"{p99:.0f} ms" if p99 >= 100 else f"{p99:.1f} ms") if p99 < 1000 else (f"{p99 / 1000:.1f} s" if p99 < 10000 else f"{p99 / 1000:.0f} s")
    late = float(r["slo_violation_rate"])
    text = f"{energy:#.3g} J, {p99_text}, " + (f"{percent(late)} % late" if late > 0 else "0 %")
    over = float(r["periods_over_cap_share"])
    if over > 0:
        text += f", {100 * over:.0f} % over"
    return text


def slo(path):
    rows = list(csv.DictReader(open(path)))
    groups = defaultdict(dict)
    order = []
    for r in rows:
        key = (r["gpu"], r["model"], r["arrivals"])
        if key not in groups:
            order.append(key)
        groups[key][r["governor"]] = r
    out = ["| GPU, model (SLO), arrivals, mean req/s | " + " | ".join(SLO_GOVERNORS) + " |",
           "|---" * (len(SLO_GOVERNORS) + 1) + "|"]
    for key in order:
        first = next(iter(groups[key].values()))
        label = (f"{GPU[key[0]]} {MODEL[key[1]]} ({first['slo_ms']} ms), "
                 f"{'Poisson' if key[2] == 'poisson' else 'bursty'} {float(first['mean_rate_per_s']):,.0f}")
        out.append(f"| {label} | " + " | ".join(slo_cell(groups[key][g]) for g in SLO_GOVERNORS) + " |")
    return out


if __name__ == "__main__":
    which = sys.argv[1] if len(sys.argv) > 1 else ""
    if which == "study":
        print("\n".join(study(sys.argv[2] if len(sys.argv) > 2 else "results/batch_dvfs_study.csv")))
    elif which == "slo":
        print("\n".join(slo(sys.argv[2] if len(sys.argv) > 2 else "results/serving_slo_study.csv")))
    else:
        sys.exit(__doc__)
