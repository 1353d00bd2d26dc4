#!/usr/bin/python3
"""Fits the host pipeline of the BatchDVFS paper's recorded P40 runs (tests/data/batchdvfs).

Each of the paper's TensorFlow session calls decoded and resized its B images on the host, then ran
the GPU pass; the next call started after. This script fits one call's time as

    t_call(B, f) = a + h*B + k_m*B*(1531/f)

with a (per call) and h (per image) common to every model and k_m (the GPU pass per image at
1,531 MHz) per model, on the steady calls of every run, and checks it two ways: fitted on the
BatchDVFS and DVFS-256 runs alone, it predicts Clipper's calls; and leave one model out, (a, h)
from the other models and only k_m from the held-out model's batch-256 rows. It also gives the host
time from nvidia-smi's utilization (call x (1 - utilization.gpu)) as an independent check of h.
dse uses a and h as the per-batch host stage of `dse validate batchdvfs`
(sim/serving/batchdvfs_validation.cpp; docs/batch_dvfs.md, "The paper's pipeline").

Which calls count (steady calls): the first row of a run (TensorFlow's warm-up), the cut last
batch, the first call at a batch size the run had not run before (a one-time graph specialisation)
and any row whose time stamp lies more than 0.1 s after the previous row's plus its call (a gap
outside the session call: a clock change or a stall) are left out. A call is B / `Througput`.
Calls are grouped by (controller, model, batch, clock); a group of 3 or more rows is one point,
at its median call, weighted by min(rows, 50) and fitted on relative error.

    scripts/batchdvfs_pipeline_fit.py [tests/data/batchdvfs]

Needs numpy (Debian's python3-numpy). Written for issue 50 from the analysis of the recorded runs.
"""
import bisect
import calendar
import glob
import os
import re
import sys

import numpy as np

DEFAULT_CLOCK_MHZ = 1531.0  # Clipper's runs: the default clock (no DVFS column)
SMI_UTC_OFFSET_H = 5  # nvidia-smi's time stamps are local time, UTC-5
MAX_WEIGHT = 50
HEAVY_BATCH1 = ("InceptionV4", "NASNet_A_Large")  # runs mostly at batch 1-4: left out of the joint fit


def number(text):
    text = re.sub(r"\s*(%|W|MHz)$", "", text.strip())
    try:
        return float(text)
    except ValueError:
        return None


def run_name(path):
    m = re.match(r"(\d+)_(.*?)_(BatchDVFS|Clipper|DVFS)\.", os.path.basename(path))
    return m.group(1) + "_" + m.group(2)


def load_runs(root, controller):
    """{run: [rows]} with t, thr, power, batch, clock (None where the file has no clock)."""
    runs = {}
    for path in sorted(glob.glob(os.path.join(root, controller, "*.csv"))):
        rows = []
        with open(path) as f:
            f.readline()
            for line in f:
                cells = line.strip().split(",")
                if not cells[0].strip():
                    break  # the summary block after the rows
                v = [number(c) for c in cells]
                if controller == "batchdvfs":
                    rows.append(dict(t=v[0], thr=v[1], power=v[2], batch=v[3], clock=v[8]))
                elif controller == "clipper":
                    rows.append(dict(t=v[0], thr=v[1], power=v[2], batch=v[3], clock=None))
                else:
                    rows.append(dict(t=v[0], thr=v[1], power=v[3], batch=v[4], clock=v[5]))
        runs[run_name(path)] = rows
    return runs


def load_smi(root, controller):
    """{run: [samples]} with t (Unix s), util (%), from the nvidia-smi logs beside the runs."""
    out = {}
    for path in sorted(glob.glob(os.path.join(root, controller, "nvidia-smi", "*.csv"))):
        samples = []
        with open(path) as f:
            f.readline()
            for line in f:
                cells = line.strip().split(",")
                if len(cells) < 5:
                    continue
                m = re.match(r"(\d{4})/(\d\d)/(\d\d) (\d\d):(\d\d):(\d\d)\.(\d+)", cells[0].strip())
                util = number(cells[1])
                if not m or util is None:
                    continue
                y, mo, d, h, mi, s, frac = m.groups()
                t = calendar.timegm((int(y), int(mo), int(d), int(h), int(mi), int(s)))
                samples.append(dict(t=t + float("0." + frac) + SMI_UTC_OFFSET_H * 3600, util=util))
        out[run_name(path)] = samples
    return out


def steady_rows(rows):
    """Marks each row: call (s), and whether it is a steady call."""
    seen = set()
    for i, r in enumerate(rows):
        r["call"] = r["batch"] / r["thr"]
        gap = (r["t"] - rows[i - 1]["t"]) - r["call"] if i > 0 else 0.0
        new_batch = r["batch"] not in seen
        seen.add(r["batch"])
        r["clk"] = r["clock"] or DEFAULT_CLOCK_MHZ
        r["steady"] = i > 0 and i < len(rows) - 1 and not new_batch and gap <= 0.1
    return rows


def groups(root):
    """Points (controller, run, B, f): median call, rows, and mean utilization where nvidia-smi has samples."""
    g = {}
    for controller in ["batchdvfs", "clipper", "dvfs256"]:
        runs = load_runs(root, controller)
        smi = load_smi(root, controller)
        for run, rows in runs.items():
            steady_rows(rows)
            for r in rows:
                if r["steady"]:
                    g.setdefault((controller, run, int(r["batch"]), int(r["clk"])), dict(calls=[], util=[]))
                    g[(controller, run, int(r["batch"]), int(r["clk"]))]["calls"].append(r["call"])
            times = [r["t"] for r in rows]
            for s in smi.get(run, []):
                i = bisect.bisect_left(times, s["t"])  # the sample lies in row i's call
                if i == 0 or i >= len(rows) or not rows[i]["steady"]:
                    continue
                r = rows[i]
                key = (controller, run, int(r["batch"]), int(r["clk"]))
                g[key]["util"].append(s["util"])
                g[key].setdefault("wall", []).append(r["t"] - rows[i - 1]["t"])
    points = []
    for (controller, run, b, f), v in g.items():
        if len(v["calls"]) < 3:
            continue
        calls = np.array(v["calls"])
        p = dict(ctrl=controller, run=run, B=b, f=f, n=len(calls), call=float(np.median(calls)),
                 call_mean=float(calls.mean()), nsmi=len(v["util"]))
        if v["util"]:
            p["util"] = float(np.mean(v["util"]))
        points.append(p)
    return points


def weight(p):
    return min(p["n"], MAX_WEIGHT)


def design(points, runs):
    return np.array([[1.0, p["B"]] + [p["B"] * 1531.0 / p["f"] if p["run"] == r else 0.0 for r in runs]
                     for p in points])


def fit(points, runs):
    """(a, h, k_m...) in s, s/img: weighted least squares on relative error."""
    x = design(points, runs)
    t = np.array([p["call"] for p in points])
    w = np.sqrt(np.array([weight(p) for p in points], float) / t**2)
    return np.linalg.lstsq(x * w[:, None], t * w, rcond=None)[0]


def mape(points, predicted):
    t = np.array([p["call"] for p in points])
    return 100 * np.average(np.abs(predicted - t) / t, weights=[weight(p) for p in points])


def main(argv):
    root = argv[1] if len(argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "tests", "data", "batchdvfs")
    points = groups(root)
    all_runs = sorted({p["run"] for p in points})
    runs13 = [r for r in all_runs if not any(x in r for x in HEAVY_BATCH1)]
    p13 = [p for p in points if p["run"] in runs13]

    c = fit(p13, runs13)
    print("joint fit on %d models (%d groups; %s left out: mostly batch 1-4):" %
          (len(runs13), len(p13), ", ".join(r for r in all_runs if r not in runs13)))
    print("  a = %.1f ms per call, h = %.2f ms per image, MAPE %.1f %%" % (1e3 * c[0], 1e3 * c[1],
                                                                         mape(p13, design(p13, runs13) @ c)))
    print("  k_m (GPU pass per image at 1,531 MHz, ms): " +
          ", ".join("%s %.2f" % (r, 1e3 * k) for r, k in zip(runs13, c[2:])))

    train = [p for p in p13 if p["ctrl"] != "clipper"]
    test = [p for p in p13 if p["ctrl"] == "clipper"]
    train_runs = sorted({p["run"] for p in train})
    ct = fit(train, train_runs)
    predicted = design(test, train_runs) @ ct
    signed = np.median((predicted - np.array([p["call"] for p in test])) / np.array([p["call"] for p in test]))
    print("fitted on BatchDVFS + DVFS-256 (a = %.1f ms, h = %.2f ms), Clipper's %d groups predicted: MAPE %.1f %%, "
          "median signed %+.1f %%" % (1e3 * ct[0], 1e3 * ct[1], len(test), mape(test, predicted), 100 * signed))

    print("leave one model out: (a, h) from the other models, k_m from the held-out model's batch-256 rows, "
          "error on its other calls:")
    errors = []
    for run in all_runs:
        others = [p for p in p13 if p["run"] != run]
        co = fit(others, sorted({p["run"] for p in others}))
        a, h = co[0], co[1]
        mine = [p for p in points if p["run"] == run]
        big = [p for p in mine if p["B"] >= 255]
        rest = [p for p in mine if p["B"] < 255]
        if not big or not rest:
            print("  %s: no batch-256 rows and others to check" % run)
            continue
        x = np.array([p["B"] * 1531.0 / p["f"] for p in big])
        wb = np.array([weight(p) for p in big], float)
        k = np.sum(wb * (np.array([p["call"] for p in big]) - a - h * np.array([p["B"] for p in big])) * x) / \
            np.sum(wb * x**2)
        pred = np.array([a + h * p["B"] + k * p["B"] * 1531.0 / p["f"] for p in rest])
        t = np.array([p["call"] for p in rest])
        err = mape(rest, pred)
        if run in runs13:
            errors.append(err)
        print("  %s: a = %.1f ms, h = %.2f ms, k = %.2f ms -> MAPE %.1f %% over %d groups, median signed %+.1f %%" %
              (run, 1e3 * a, 1e3 * h, 1e3 * k, err, len(rest), 100 * np.median((pred - t) / t)))
    print("  the %d models of the joint fit: %.1f-%.1f %%, median %.1f %%" % (len(errors), min(errors), max(errors),
                                                                           np.median(errors)))

    with_smi = [p for p in points if p["nsmi"] >= 10]
    b = np.array([p["B"] for p in with_smi], float)
    host = np.array([p["call_mean"] * (1 - p["util"] / 100) for p in with_smi])
    w = np.sqrt(np.array([weight(p) for p in with_smi], float) / host**2)
    x = np.c_[np.ones_like(b), b]
    ch = np.linalg.lstsq(x * w[:, None], host * w, rcond=None)[0]
    err = 100 * np.average(np.abs(x @ ch - host) / host, weights=[weight(p) for p in with_smi])
    print("host time from nvidia-smi (call x (1 - utilization.gpu)), %d groups with >= 10 samples: "
          "%.1f ms + %.2f ms x B, MAPE %.1f %%" % (len(with_smi), 1e3 * ch[0], 1e3 * ch[1], err))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
