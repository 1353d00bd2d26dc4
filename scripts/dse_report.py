#!/usr/bin/python3
"""Plots and one self-contained HTML page for dse result files (`dse report`, docs/report.md).

Reads only the HDF5 layout documented in docs/results.md, docs/search.md and docs/serving.md, so it
can be used on its own:  python3 scripts/dse_report.py RUN.h5 [MORE.h5 ...] [--out DIR] [--format png|svg]

What it draws depends on what the file holds:
  search   Pareto front (objectives pairwise, the best trial marked), convergence (best so far against
           trials; one line per file with --compare), the objective against each parameter
  serving  latency CDF per tenant with its SLO; power with the cap, clock and batch size over time;
           throughput and power of the batches by (batch size, clock)
  validation  predicted against measured with +-10/20 % bands (and held out, with --leave-one-out);
           the error by op kind and GPU
  single   a timeline per stream (kernels coloured by op kind) with the board power; time by op kind
Several files: each gets its section; with --compare, searches share one convergence plot and
serving runs one latency CDF and one power trace.

Exit status: 0 written; 2 bad input (a missing, truncated or foreign file, a bad flag, missing
Python packages), with one line naming the file and what was expected.
"""
import argparse
import base64
import html
import os
import shutil
import sys
import tempfile


class ReportError(Exception):
    """Bad input: printed as one line, exit 2."""


class OutputError(Exception):
    """The report folder cannot take the report: printed as one line, exit 2, the folder as it was."""


def fail(message):
    print(f"dse: error: {message}", file=sys.stderr)
    sys.exit(2)


try:
    import h5py
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np
    import yaml
    from matplotlib.colors import Normalize
    from matplotlib.ticker import FuncFormatter, LogLocator, MaxNLocator, NullFormatter
except ImportError as error:  # pragma: no cover - depends on the machine
    fail(f"{error.name} is missing: install Debian's python3-matplotlib, python3-h5py and python3-yaml "
         "(scripts/bootstrap.sh does)")

# --- reading the documented layout -------------------------------------------------------------


def text(value):
    return value.decode() if isinstance(value, bytes) else str(value)


def strings(dataset):
    return [text(v) for v in dataset[()]]


def kind_of(item):
    """An HDF5 object as an error message names it."""
    if isinstance(item, h5py.Group):
        return "a group"
    return f"a dataset of shape {item.shape} and type {item.dtype}"


def describe_error(error):
    """An exception from reading an unknown layout, as one short line."""
    what = str(error).splitlines()[0] if str(error) else ""
    if isinstance(error, KeyError):
        return f"missing {what}"
    return f"{type(error).__name__}: {what}"[:200]


class Run:
    """One result file: its kind and the groups the report reads."""

    def __init__(self, path):
        self.path = path
        self.label = os.path.splitext(os.path.basename(path))[0]
        if not os.path.exists(path):
            raise ReportError(f"{path}: no such file")
        if not os.path.isfile(path):
            raise ReportError(f"{path}: expected a dse result file (HDF5), found something that is not a file")
        try:
            self.file = h5py.File(path, "r")
        except OSError as error:
            raise ReportError(f"{path}: expected a dse result file (HDF5), found a file HDF5 cannot open "
                              f"(truncated or not HDF5: {error})")
        try:
            self._read_layout()
        except ReportError:
            raise
        except Exception as error:  # a layout this script does not know: one line, never a traceback
            raise ReportError(f"{path}: expected the layout of docs/results.md, found one dse report cannot read "
                              f"({describe_error(error)})")

    def _read_layout(self):
        f, path = self.file, self.path
        if "config" not in f or "meta" not in f:
            raise ReportError(f"{path}: expected a dse result file (/config and /meta, docs/results.md), "
                              f"found an HDF5 file without them (groups: {', '.join(sorted(f.keys())) or 'none'})")
        if not isinstance(f["config"], h5py.Dataset) or f["config"].shape != ():
            raise ReportError(f"{path}: /config: expected the resolved YAML as one string, "
                              f"found {kind_of(f['config'])}")
        if not isinstance(f["meta"], h5py.Group):
            raise ReportError(f"{path}: /meta: expected a group of strings, found {kind_of(f['meta'])}")
        self.config = text(f["config"][()])
        try:  # the resolved config, for what the figures mark (objectives, SLOs)
            self.tree = yaml.safe_load(self.config)
        except yaml.YAMLError:
            self.tree = None
        if not isinstance(self.tree, dict):
            self.tree = {}
        self.meta = {k: text(f["meta"][k][()]) for k in f["meta"]
                     if isinstance(f["meta"][k], h5py.Dataset) and f["meta"][k].shape == ()}
        # What made the file: /meta/kind (every dse since it was added); files from before are told
        # by the groups they hold.
        self.kind = self.meta.get("kind")

        def has_rows(name):
            return name in f and isinstance(f[name], h5py.Dataset) and len(f[name].shape) == 1 and f[name].shape[0] > 0

        if self.kind is None:
            self.kind = ("search" if "trials" in f else "validation" if "validation" in f else
                         "serving" if has_rows("requests/arrival_s") else
                         "single" if has_rows("ops/start_us") else None)
        if self.kind is None:
            raise ReportError(f"{path}: expected /trials (a search), /requests (a serving run), /validation "
                              "(dse validate --output) or /ops (a single run) with rows, found none")
        rows = {"search": "trials/id", "validation": "validation/measured_ms", "serving": "requests/arrival_s",
                "single": "ops/start_us"}
        if self.kind not in rows:
            raise ReportError(f"{path}: /meta/kind: expected one of {', '.join(rows)}, found {self.kind!r}")
        if self.kind in ("search", "validation"):
            self.need(rows[self.kind])  # a search or validation may have no rows (nothing to draw)
        elif not has_rows(rows[self.kind]):
            raise ReportError(f"{path}: a {self.kind} result (/meta/kind) without rows in /{rows[self.kind]}")

    def need(self, name, group=False):
        """The dataset (or group) at `name`, or a ReportError naming the file and what is missing."""
        if name not in self.file:
            raise ReportError(f"{self.path}: expected /{name} in a {self.kind} result (docs/results.md), found none")
        item = self.file[name]
        if group != isinstance(item, h5py.Group):
            raise ReportError(f"{self.path}: /{name}: expected {'a group' if group else 'a dataset'}, "
                              f"found {kind_of(item)}")
        return item

    def metrics(self):
        if "summary/metrics" not in self.file:
            return []
        g = self.file["summary/metrics"]
        return list(zip(strings(g["name"]), g["value"][()], strings(g["unit"]), strings(g["description"])))

    def metric(self, name):
        for n, value, _, _ in self.metrics():
            if n == name:
                return float(value)
        return None

    def columns(self, group, numbers=(), texts=()):
        """The group's columns by name: one-dimensional, of one length, with `numbers` (numeric) and
        `texts` (strings) among them."""
        g = self.need(group, group=True)
        out = {}
        for key in g:
            if isinstance(g[key], h5py.Dataset):
                d = g[key]
                if len(d.shape) != 1:
                    raise ReportError(f"{self.path}: /{group}/{key}: expected a column (one dimension), "
                                      f"found shape {d.shape}")
                out[key] = strings(d) if d.dtype.kind in "OS" else d[()]
        lengths = {key: len(v) for key, v in out.items()}
        if len(set(lengths.values())) > 1:
            shown = ", ".join(f"{k} {n}" for k, n in sorted(lengths.items()))
            raise ReportError(f"{self.path}: /{group}: expected columns of one length, found {shown} rows")
        # Files written before the clock columns were named for every device kind.
        for old, new in (("sm_clock_mhz", "clock_mhz"), ("sm_clock_after_mhz", "clock_after_mhz")):
            if old in out and new not in out:
                out[new] = out.pop(old)
        missing = [key for key in (*numbers, *texts) if key not in out]
        if missing:
            raise ReportError(f"{self.path}: /{group}: expected the columns {', '.join((*numbers, *texts))} "
                              f"(docs/results.md), found no {', '.join(missing)}")
        for key in numbers:
            if isinstance(out[key], list) or out[key].dtype.kind not in "biuf":
                raise ReportError(f"{self.path}: /{group}/{key}: expected numbers, found "
                                  f"{'strings' if isinstance(out[key], list) else out[key].dtype}")
        for key in texts:
            if not isinstance(out[key], list):
                raise ReportError(f"{self.path}: /{group}/{key}: expected strings, found {out[key].dtype}")
        return out

    def metric_units(self):
        """Units of the metrics the file names in a metric table (/summary, /baseline)."""
        units = {}
        for table in ("baseline/metrics", "summary/metrics"):
            if f"{table}/name" in self.file and f"{table}/unit" in self.file:
                units.update(zip(strings(self.file[f"{table}/name"]), strings(self.file[f"{table}/unit"])))
        return units


def objectives_of(tree):
    """The search block's objectives as [(metric, 'maximize'|'minimize')]."""
    block = (tree.get("search") or {}).get("objective", [])
    items = block if isinstance(block, list) else [block]
    return [(str(item[sense]), sense) for item in items if isinstance(item, dict)
            for sense in ("maximize", "minimize") if sense in item]


def slos_of(tree):
    """Per tenant, the SLO in ms (None where a tenant has none)."""
    serving = ((tree.get("workload") or {}).get("serving") or {})
    return [t.get("slo_ms") if isinstance(t, dict) else None for t in serving.get("tenants") or []]


# --- figures -------------------------------------------------------------------------------------

# No "+1.26e3" offset above an axis: float noise in a constant clock or power read as a shift.
matplotlib.rcParams["axes.formatter.useoffset"] = False

# Units by a name's suffix (dse's names carry their unit, docs/metrics.md), for what a file's metric
# tables do not name: search parameters, and metrics of files without /baseline.
NAMED_UNITS = {"perf_per_w": "1/s/W", "perf_per_tdp": "1/s/W", "perf_per_mm2": "1/s/mm²", "requests": "count",
               "batch_mean": "count", "batch": "count", "max_batch": "count", "fusion_groups": "count"}
SUFFIX_UNITS = (("_per_s", "1/s"), ("_gb_per_s", "GB/s"), ("_gbps", "GB/s"), ("_ms", "ms"), ("_us", "µs"),
                ("_s", "s"), ("_mhz", "MHz"), ("_w", "W"), ("_j", "J"), ("_v", "V"), ("_kib", "KiB"),
                ("_mib", "MiB"), ("_bytes", "B"), ("_mm2", "mm²"), ("_pct", "%"), ("_share", "share"))


def unit_of(name, units=None):
    """The unit of a metric or parameter name ("" where it has none): from the file's metric tables,
    else from the name."""
    if units and name in units:
        return units[name]
    leaf = name.rsplit(".", 1)[-1].split("[", 1)[0]
    base = leaf
    if "_model" in leaf and leaf.rsplit("_model", 1)[1].isdigit():
        base = leaf.rsplit("_model", 1)[0]  # latency_ms_model1: a per-model metric
    if "_vs_" in base:
        return "ratio"
    if base in NAMED_UNITS:
        return NAMED_UNITS[base]
    for suffix, unit in sorted(SUFFIX_UNITS, key=lambda item: -len(item[0])):
        if base.endswith(suffix):
            return unit
    return ""


def labelled(name, units=None, note=""):
    """An axis label: the name, its unit (none for counts) and a note: "latency_ms, ms (minimize)"."""
    unit = unit_of(name, units)
    return name + (f", {unit}" if unit and unit != "count" else "") + (f" ({note})" if note else "")


def integer_ticks(axis):
    """Whole-number ticks on an axis of integers (batch sizes, trial numbers, integer parameters)."""
    axis.set_major_locator(MaxNLocator(nbins="auto", integer=True, steps=[1, 2, 2.5, 5, 10]))


def tidy_axes(fig):
    """Applied to every figure before it is saved, once its data are drawn: plain, non-overlapping
    labels on log axes (round numbers within a decade, 1-2-5 up to two and a half decades, decades
    beyond, no minor labels), and a linear axis whose data differ only by float noise widened to
    show the value itself."""
    for ax in fig.axes:
        for axis, get_limits, set_limits in ((ax.xaxis, ax.get_xlim, ax.set_xlim),
                                             (ax.yaxis, ax.get_ylim, ax.set_ylim)):
            lo, hi = sorted(get_limits())
            if axis.get_scale() == "log":
                base = getattr(axis.get_transform(), "base", 10)
                decades = np.log(hi / lo) / np.log(base) if lo > 0 and hi > lo else 0
                if decades < 1:  # within a decade: round numbers (1.6, 1.8, 2), as on a linear axis
                    axis.set_major_locator(MaxNLocator(nbins=5, steps=[1, 2, 2.5, 5, 10]))
                else:
                    subs = (1.0, 2.0, 5.0) if base == 10 and decades <= 2.5 else (1.0,)
                    axis.set_major_locator(LogLocator(base=base, subs=subs, numticks=9))
                axis.set_major_formatter(FuncFormatter(lambda value, _: f"{value:g}"))
                axis.set_minor_formatter(NullFormatter())
            elif axis.get_scale() == "linear" and ax.get_visible():
                middle = (lo + hi) / 2
                if hi > lo and hi - lo < 1e-6 * abs(middle):
                    set_limits(middle - 0.05 * abs(middle), middle + 0.05 * abs(middle))


class Figures:
    """Figures saved beside index.html and embedded in it. They are written to a staging folder
    inside the report folder and moved into it with index.html only when every one is written, so
    that a full disk or a failure part way leaves the folder as it was (never a partial set)."""

    def __init__(self, out_dir, fmt):
        self.out_dir, self.fmt, self.items = out_dir, fmt, []
        self.stage = tempfile.mkdtemp(prefix=".dse-report-", dir=out_dir)  # OSError: the caller says why

    def save(self, fig, name, caption):
        path = os.path.join(self.stage, f"{name}.{self.fmt}")
        try:
            tidy_axes(fig)
            if fig.get_layout_engine() is None:
                fig.tight_layout()
            fig.savefig(path, dpi=110)
        except OSError as error:
            raise OutputError(f"{self.out_dir}: cannot write {name}.{self.fmt}: {error.strerror or error}; "
                              "the folder was left as it was")
        finally:
            plt.close(fig)
        self.items.append((name, caption, path))
        return path

    def html(self, name, caption, path):
        with open(path, "rb") as f:
            data = f.read()
        mime = "image/svg+xml" if self.fmt == "svg" else "image/png"
        src = f"data:{mime};base64,{base64.b64encode(data).decode()}"
        return (f'<figure id="{html.escape(name)}"><img src="{src}" alt="{html.escape(caption)}">'
                f"<figcaption>{html.escape(caption)}</figcaption></figure>")

    def publish(self, page_html):
        """Writes index.html and moves it and every figure into the report folder (a rename each,
        replacing an entry there, a symbolic link included, rather than writing through it).
        Returns index.html's path and the figures' paths."""
        staged = [path for _, _, path in self.items] + [os.path.join(self.stage, "index.html")]
        try:
            with open(staged[-1], "w", encoding="utf-8") as f:
                f.write(page_html)
        except OSError as error:
            raise OutputError(f"{self.out_dir}: cannot write index.html: {error.strerror or error}; "
                              "the folder was left as it was")
        finals = [os.path.join(self.out_dir, os.path.basename(path)) for path in staged]
        for final in finals:
            if os.path.isdir(final) and not os.path.islink(final):
                raise OutputError(f"{final}: expected a file or nothing there, found a folder; "
                                  "the report folder was left as it was")
        for path, final in zip(staged, finals):
            try:
                os.replace(path, final)
            except OSError as error:
                raise OutputError(f"{final}: cannot move the report into place: {error.strerror or error}")
        return finals[-1], finals[:-1]

    def discard(self):
        shutil.rmtree(self.stage, ignore_errors=True)


def plot_search(run, figs, prefix):
    t = run.columns("trials", numbers=("id", "objective"), texts=("status",))
    if len(t["id"]) == 0:
        return  # no trial ran: nothing to draw (the page says how many)
    status = np.array(t["status"])
    ok = status == "ok"
    metrics = {k: np.asarray(v, dtype=float) for k, v in run.columns("trials/metrics").items()}
    params = run.columns("trials/parameters") if "trials/parameters" in run.file else {}
    units = run.metric_units()
    objectives = [(m, s) for m, s in objectives_of(run.tree) if m in metrics]
    if not objectives:
        objectives = [("objective", "maximize")]
        metrics["objective"] = np.asarray(t["objective"], dtype=float)
    pareto = set(int(i) for i in run.need("pareto/trial")[()]) if "pareto/trial" in run.file else set()
    best = int(run.need("best/trial")[()][0]) if "best/trial" in run.file and run.file["best/trial"].shape[0] else None
    ids = np.asarray(t["id"], dtype=int)
    # The baseline: the experiment as written, which dse run simulates after the search (/baseline).
    base_metrics = None
    if "baseline/metrics" in run.file:
        g = run.file["baseline/metrics"]
        base_metrics = dict(zip(strings(g["name"]), (float(x) for x in g["value"][()])))
    # Pareto front: objectives pairwise.
    pairs = [(a, b) for i, a in enumerate(objectives) for b in objectives[i + 1:]]
    for (ma, sa), (mb, sb) in pairs:
        fig, ax = plt.subplots(figsize=(6.4, 4.6))
        ax.scatter(metrics[ma][ok], metrics[mb][ok], s=10, color="0.7", label="ok trials")
        front = np.array([i in pareto for i in ids]) & ok
        order = np.argsort(metrics[ma][front])
        ax.plot(metrics[ma][front][order], metrics[mb][front][order], "o-", color="C0", ms=4,
                label=f"Pareto front ({front.sum()})")
        if base_metrics and ma in base_metrics and mb in base_metrics:
            ax.scatter([base_metrics[ma]], [base_metrics[mb]], marker="D", s=70, facecolors="none", edgecolors="k",
                       zorder=6, label="baseline (the config as written)")
        if best is not None and best in ids:
            k = int(np.where(ids == best)[0][0])
            ax.scatter([metrics[ma][k]], [metrics[mb][k]], marker="*", s=180, color="C3", zorder=5,
                       label=f"best (trial {best})")
        for values, set_scale in ((metrics[ma][ok], ax.set_xscale), (metrics[mb][ok], ax.set_yscale)):
            finite = values[np.isfinite(values)]
            if finite.size and finite.min() > 0 and finite.max() / finite.min() > 50:
                set_scale("log")  # a range of more than 50x reads better on a log axis
        ax.set_xlabel(labelled(ma, units, sa))
        ax.set_ylabel(labelled(mb, units, sb))
        ax.set_title(f"{run.label}: Pareto front")
        ax.legend(fontsize=8)
        figs.save(fig, f"{prefix}pareto_{ma}_{mb}", f"{run.label}: {mb} against {ma}, every ok trial and the front")
    # Convergence.
    fig, ax = plt.subplots(figsize=(6.4, 4.0))
    plot_convergence(ax, run)
    if base_metrics and objectives[0][0] in base_metrics:
        ax.axhline(base_metrics[objectives[0][0]], color="k", ls="--", lw=1, label="baseline (the config as written)")
    ax.legend(fontsize=8)
    figs.save(fig, f"{prefix}convergence", f"{run.label}: best {objectives[0][0]} so far against trials")
    # The first objective against each parameter.
    m, sense = objectives[0]
    keys = sorted(params)
    if keys:
        ncols = min(4, len(keys))
        nrows = (len(keys) + ncols - 1) // ncols
        fig, axes = plt.subplots(nrows, ncols, figsize=(4.2 * ncols, 3.6 * nrows + 0.6), squeeze=False)
        for ax in axes.flat[len(keys):]:
            ax.set_visible(False)
        for ax, key in zip(axes.flat, keys):
            values = np.array(params[key])
            x = np.array([as_number(v) for v in values])
            numeric = ~np.isnan(x)
            inactive = np.isin(values, ["", "-"])  # a conditional parameter its condition switched off
            if np.all(numeric | inactive) and numeric.any():
                sel = ok & numeric
                ax.scatter(x[sel], metrics[m][sel], s=8, color="C0")
                if x[sel].size and x[sel].min() > 0 and x[sel].max() / x[sel].min() > 50:
                    ax.set_xscale("log", base=2)
                elif np.all(x[numeric] == np.round(x[numeric])):
                    integer_ticks(ax.xaxis)  # cores, lanes, batch sizes: no 2.5 of them
            else:
                cats = sorted(set(values[ok]))
                pos = {c: i for i, c in enumerate(cats)}
                ax.scatter([pos[v] for v in values[ok]], metrics[m][ok], s=8, color="C0")
                ax.set_xticks(range(len(cats)))
                ax.set_xticklabels(cats, rotation=30, ha="right", fontsize=8)
            ax.set_xlabel(labelled(key))
            ax.set_ylabel(labelled(m, units))
        fig.suptitle(f"{run.label}: {m} ({sense}) against each parameter (ok trials)")
        figs.save(fig, f"{prefix}parameters", f"{run.label}: {m} against each search parameter")


def as_number(text_value):
    try:
        return float(text_value)
    except ValueError:
        return float("nan")


def plot_convergence(ax, run, label=None):
    best_so_far = np.asarray(run.need("trials/best_so_far")[()], dtype=float)
    ax.plot(np.arange(1, len(best_so_far) + 1), best_so_far, label=label or run.label)
    ax.set_xlabel("trials")
    integer_ticks(ax.xaxis)
    objectives = objectives_of(run.tree)
    ax.set_ylabel("best " + (labelled(objectives[0][0], run.metric_units()) if objectives else "objective")
                  + " so far")
    ax.set_title("convergence")


def serving_window(run):
    """The measured window (/serving/window_start_s, window_end_s): before it the warm-up."""
    def seconds(name, default):
        return float(run.need(name)[()]) if name in run.file else default
    return seconds("serving/window_start_s", 0.0), seconds("serving/window_end_s", np.inf)


def tenant_names(run):
    return strings(run.need("serving/tenant_models")) if "serving/tenant_models" in run.file else []


def tenant_colour(i):
    return plt.cm.tab10(i % 10)


def latency_cdf(ax, run, tenant_label_prefix="", slos_drawn=None):
    r = run.columns("requests", numbers=("arrival_s", "end_s", "tenant"))
    models = tenant_names(run)
    start, end = serving_window(run)
    arrival, finish, tenant = (np.asarray(r[k], dtype=float) for k in ("arrival_s", "end_s", "tenant"))
    slos = slos_of(run.tree)
    for i in sorted(set(tenant.astype(int))):
        sel = (tenant == i) & (arrival >= start) & (arrival <= end) & (finish >= 0)
        lat = np.sort((finish[sel] - arrival[sel]) * 1e3)
        if lat.size == 0:
            continue
        name = models[i] if i < len(models) else f"tenant {i}"
        line, = ax.plot(lat, np.arange(1, lat.size + 1) / lat.size,
                        label=f"{tenant_label_prefix}{name} (p99 {np.percentile(lat, 99):.4g} ms)")
        slo = slos[i] if i < len(slos) else None
        if slo and (slos_drawn is None or (name, slo) not in slos_drawn):
            ax.axvline(float(slo), color=line.get_color(), ls="--", lw=1, label=f"{name} SLO {slo} ms")
            if slos_drawn is not None:
                slos_drawn.add((name, slo))  # compared runs of one model and SLO share one line
    ax.set_xscale("log")
    ax.set_xlabel("latency, ms (arrival to completion)")
    ax.set_ylabel("share of requests")
    ax.set_title("latency CDF")
    ax.grid(alpha=0.3)


def shade_outside_window(axes, run, end_s):
    """Greys the warm-up [0, window start] and any time after the window's end: not measured."""
    start, end = serving_window(run)
    for k, ax in enumerate(axes):
        if start > 0:
            ax.axvspan(0, start, color="0.88", zorder=0, lw=0, label="warm-up (not measured)" if k == 0 else None)
        if np.isfinite(end) and end_s - end > 0.005 * end_s:  # a drain long enough to see
            ax.axvspan(end, end_s, color="0.93", zorder=0, lw=0,
                       label="after the window (not measured)" if k == 0 else None)


def plot_serving(run, figs, prefix):
    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    latency_cdf(ax, run)
    ax.legend(fontsize=8)
    figs.save(fig, f"{prefix}latency_cdf", f"{run.label}: latency CDF per tenant with its SLO")
    # Power, clock and batch size over time.
    s = run.columns("serving/sensor", numbers=("time_s", "power_w", "clock_mhz"))
    b = run.columns("serving/batches", numbers=("start_s", "end_s", "size", "clock_mhz", "logged_power_w"))
    models = tenant_names(run)
    tenant = np.asarray(b["tenant"], dtype=int) if "tenant" in b else np.zeros(len(b["size"]), dtype=int)
    tenants = sorted(set(tenant))
    cap = run.metric("power_cap_w")
    # A GPU's knob is its SM clock; an accelerator's, the clock of its V-f level.
    clock_label = "SM clock, MHz" if run.metric("sm_clock_mhz") is not None else "clock (V-f level), MHz"
    fig, axes = plt.subplots(3, 1, figsize=(7.5, 7.0), sharex=True)
    axes[0].plot(s["time_s"], s["power_w"], lw=0.8, label="sensor power")
    if cap:
        axes[0].axhline(cap, color="C3", ls="--", label=f"cap {cap:g} W")
    axes[0].set_ylabel("power, W")
    axes[1].step(s["time_s"], s["clock_mhz"], where="post", color="C1")
    axes[1].set_ylabel(clock_label)
    for i in tenants:  # each tenant its colour, named where there are several
        sel = tenant == i
        axes[2].plot(np.asarray(b["start_s"])[sel], np.asarray(b["size"])[sel], ".", ms=1.5, color=tenant_colour(i),
                     label=models[i] if i < len(models) else f"tenant {i}")
    if len(tenants) > 1:
        axes[2].legend(fontsize=8, markerscale=6)
    axes[2].set_ylabel("batch size")
    integer_ticks(axes[2].yaxis)
    axes[2].set_xlabel("simulated time, s")
    times = [np.max(v) for v in (s["time_s"], b["end_s"]) if len(v)]
    shade_outside_window(axes, run, max(times) if times else 0)
    axes[0].legend(fontsize=8)
    for a in axes:
        a.grid(alpha=0.3)
    fig.suptitle(f"{run.label}: power, clock and batch size over time")
    figs.save(fig, f"{prefix}power_clock_batch", f"{run.label}: sensor power with the cap, clock and batch size "
                                                  "(the warm-up shaded)")
    # Throughput and power by (batch size, clock): one colour scale for both panels; one clock, no scale.
    size = np.asarray(b["size"], dtype=float)
    dur = np.asarray(b["end_s"], dtype=float) - np.asarray(b["start_s"], dtype=float)
    clock = np.asarray(b["clock_mhz"], dtype=float)
    power = np.asarray(b["logged_power_w"], dtype=float)
    keep = dur > 0
    fig, axes = plt.subplots(1, 2, figsize=(10, 4.0), layout="constrained")
    clocks = clock[keep]
    one_clock = clocks.size == 0 or clocks.max() - clocks.min() < 0.5
    norm = None if one_clock else Normalize(vmin=clocks.min(), vmax=clocks.max())
    markers = "osD^vP*X"
    scatter = None
    for i in tenants:
        sel = keep & (tenant == i)
        style = dict(s=6, marker=markers[tenants.index(i) % len(markers)],
                     label=models[i] if i < len(models) else f"tenant {i}")
        if one_clock:
            style["color"] = tenant_colour(i) if len(tenants) > 1 else "C0"
        else:
            style.update(c=clock[sel], cmap="viridis", norm=norm)
        scatter = axes[0].scatter(size[sel], size[sel] / dur[sel], **style)
        axes[1].scatter(size[sel], power[sel], **style)
    for ax in axes:
        ax.set_xlabel("batch size")
        integer_ticks(ax.xaxis)
    axes[0].set_ylabel("batch throughput, requests/s")
    # A batch done before the first reading since the governor acted has no power logged (NaN):
    # missing, not 0 W.
    logged = keep & np.isfinite(power)
    axes[1].set_ylabel("power logged with the batch, W")
    if np.count_nonzero(keep & ~logged):
        axes[1].set_title(f"{np.count_nonzero(keep & ~logged)} batches with no reading to log not drawn", fontsize=8)
    if cap:
        axes[1].axhline(cap, color="C3", ls="--", label=f"cap {cap:g} W")
    if len(tenants) > 1 or cap:
        axes[1].legend(fontsize=8, markerscale=2)
    if not one_clock and scatter is not None:
        fig.colorbar(scatter, ax=axes, label=clock_label)
    held = f" (every batch at {clocks[0]:g} MHz)" if one_clock and clocks.size else ""
    fig.suptitle(f"{run.label}: throughput and power by (batch size, clock){held}")
    figs.save(fig, f"{prefix}batch_clock", f"{run.label}: each batch's throughput and power by size and clock")


def binned(t, values, bins=250):
    """A step function (values[i] from t[i] to t[i + 1]) as its time-weighted mean over equal bins."""
    edges = np.linspace(t[0], t[-1], bins + 1)
    cumulative = np.concatenate([[0], np.cumsum(np.diff(t) * values[:-1])])  # integral up to each t[i]
    at_edges = np.interp(edges, t, cumulative)
    width = np.diff(edges)
    return edges, np.append(np.diff(at_edges) / np.where(width > 0, width, 1), 0)


def utilization(run):
    """/utilization as (start_us, occupancy %, DRAM GB/s) extended to the end of the run, or None."""
    if "utilization/start_us" not in run.file or run.need("utilization/start_us").shape[0] == 0:
        return None
    u = run.columns("utilization", numbers=("start_us", "sm_occupancy", "dram_gb_per_s"))
    end_ms = run.metric("latency_ms")
    t = np.append(np.asarray(u["start_us"], dtype=float), end_ms * 1e3 if end_ms else u["start_us"][-1])
    return t, np.append(100 * np.asarray(u["sm_occupancy"]), 100 * u["sm_occupancy"][-1]), \
        np.append(np.asarray(u["dram_gb_per_s"]), u["dram_gb_per_s"][-1])


def plot_single(run, figs, prefix):
    ops = run.columns("ops", numbers=("start_us", "duration_us", "stream"), texts=("kind",))
    kinds = sorted(set(ops["kind"]))
    # Several models (a multi-tenant schedule): kernels coloured by model, else by op kind.
    models = strings(run.need("summary/models/name")) if "summary/models/name" in run.file else []
    by_model = len(models) > 1
    if by_model:
        keys = [f"{i}: {m}" for i, m in enumerate(models)]
        colour_of = [keys[int(i)] for i in ops["model"]]
        colours = {k: plt.cm.tab10(i % 10) for i, k in enumerate(keys)}
    else:
        keys = kinds
        colour_of = list(ops["kind"])
        colours = {k: plt.cm.tab20(i % 20) for i, k in enumerate(kinds)}
    start = np.asarray(ops["start_us"], dtype=float)
    dur = np.asarray(ops["duration_us"], dtype=float)
    stream = np.asarray(ops["stream"], dtype=int)
    streams = sorted(set(stream))
    has_power = "power/start_us" in run.file and run.need("power/start_us").shape[0] > 0
    # The SM clock gets its own panel where the firmware moved it during the pass (a clock per window).
    p = run.columns("power", numbers=("start_us", "power_w", "clock_mhz")) if has_power else {}
    clock = np.asarray(p["clock_mhz"], dtype=float) if has_power else np.zeros(0)
    clock_moves = clock.size > 0 and clock.max() - clock.min() > 0.5
    use = utilization(run)
    panels = 1 + (2 if use is not None else 0) + (1 if has_power else 0) + (1 if clock_moves else 0)
    heights = [max(1.2, 0.35 * len(streams) + 0.6)] + [1.0] * (panels - 1)
    fig, axes = plt.subplots(panels, 1, figsize=(9, sum(heights) + 1.6), sharex=True, squeeze=False,
                             gridspec_kw={"height_ratios": heights})
    ax = axes[0][0]
    for row, s in enumerate(streams):
        sel = stream == s
        ax.broken_barh(list(zip(start[sel], dur[sel])), (row - 0.4, 0.8),
                       facecolors=[colours[k] for k, m in zip(colour_of, sel) if m])
    ax.set_yticks(range(len(streams)))
    ax.set_yticklabels([f"stream {s}" for s in streams])
    legend = ax.legend(handles=[matplotlib.patches.Patch(color=colours[k], label=k) for k in keys], fontsize=7,
                       ncol=min(6, len(keys)), loc="lower center", bbox_to_anchor=(0.5, 1.0), borderaxespad=0.4)
    # The title above the legend, however many rows the legend takes.
    legend_pt = legend.get_window_extent(fig.canvas.get_renderer()).height * 72 / fig.dpi
    ax.set_title(f"{run.label}: timeline per stream" + (f" ({text(run.need('summary/schedule')[()])})"
                                                        if "summary/schedule" in run.file else ""), pad=legend_pt + 8)
    row = 1
    if use is not None:
        t, occupancy, dram = use
        axes[row][0].step(t, occupancy, where="post", color="C0", lw=0.4, alpha=0.35)
        axes[row][0].step(*binned(t, occupancy), where="post", color="C0")
        axes[row][0].set_ylabel("SM slots\nheld, %")
        axes[row][0].set_ylim(0, 105)
        axes[row][0].grid(alpha=0.3)
        axes[row + 1][0].step(t, dram, where="post", color="C2", lw=0.4, alpha=0.35)
        axes[row + 1][0].step(*binned(t, dram), where="post", color="C2")
        axes[row + 1][0].set_ylabel("DRAM, GB/s")
        axes[row + 1][0].grid(alpha=0.3)
        row += 2
    if has_power:
        pa = axes[row][0]
        end_ms = run.metric("latency_ms")
        t = np.append(np.asarray(p["start_us"], dtype=float), end_ms * 1e3 if end_ms else p["start_us"][-1])
        watts = np.append(np.asarray(p["power_w"], dtype=float), p["power_w"][-1])
        pa.step(t, watts, where="post", color="C3", lw=0.4, alpha=0.35)
        pa.step(*binned(t, watts), where="post", color="C3")
        limit = run.metric("power_limit_w")
        if limit is not None:
            pa.axhline(limit, color="k", ls="--", lw=0.8, alpha=0.6)
        pa.set_ylabel("board power, W" + ("\n(-- limit)" if limit is not None else ""))
        pa.grid(alpha=0.3)
        if clock_moves:
            ca = axes[row + 1][0]
            ca.step(t, np.append(clock, clock[-1]), where="post", color="C1")
            ca.set_ylabel("SM clock, MHz")
            ca.grid(alpha=0.3)
    axes[-1][0].set_xlabel("time, µs")
    figs.save(fig, f"{prefix}timeline",
              f"{run.label}: kernels per stream coloured by {'model' if by_model else 'op kind'}"
              + (", SM occupancy and DRAM bandwidth" if use is not None else "") + (", board power" if has_power else "") + (", SM clock" if clock_moves else ""))
    # Time by op kind.
    totals = {k: dur[np.array(ops["kind"]) == k].sum() for k in kinds}
    order = sorted(totals, key=totals.get)
    fig, ax = plt.subplots(figsize=(6.4, 0.3 * len(order) + 1.2))
    kind_colours = {k: plt.cm.tab20(i % 20) for i, k in enumerate(kinds)}
    ax.barh(order, [totals[k] for k in order], color=[kind_colours[k] for k in order])
    ax.set_xlabel("kernel time, µs (summed over streams)")
    ax.set_title(f"{run.label}: time by op kind")
    figs.save(fig, f"{prefix}time_by_kind", f"{run.label}: kernel time summed by op kind")


VALIDATION_NUMBERS = ("measured_ms", "predicted_ms", "held_out_ms")


def plot_validation(run, figs, prefix):
    v = run.columns("validation", numbers=VALIDATION_NUMBERS, texts=("gpu", "op"))
    if len(v["measured_ms"]) == 0:
        return  # every row was skipped (dse validate e2e lists why): nothing to plot
    what = "model" if run.tree.get("validate") == "e2e" else "op kind"  # end-to-end rows are grouped by model
    gpu, op = np.array(v["gpu"]), np.array(v["op"])
    measured = np.asarray(v["measured_ms"], dtype=float)
    session = run.tree.get("validate") == "calibration"  # dse calibration validate --output
    columns = [("predicted_ms", "default calibration" if session else "dse (calibration used)")]
    held = np.asarray(v["held_out_ms"], dtype=float)
    if np.isfinite(held).any():
        columns.append(("held_out_ms", "session's calibration, held-out rows" if session
                        else "held out (fitted without that GPU)"))
    gpus = sorted(set(gpu))
    fig, axes = plt.subplots(1, len(columns), figsize=(6.0 * len(columns), 5.2), squeeze=False)
    lo, hi = measured[measured > 0].min(), measured.max()
    line = np.array([lo, hi])
    for ax, (key, title) in zip(axes[0], columns):
        predicted = np.asarray(v[key], dtype=float)
        drawn = np.isfinite(predicted)  # a calibration's fitted rows have no held-out prediction
        for i, g in enumerate(gpus):
            sel = (gpu == g) & drawn
            ax.scatter(measured[sel], predicted[sel], s=4 if len(measured) > 500 else 18, alpha=0.6,
                       color=plt.cm.tab10(i % 10), label=g)
        ax.plot(line, line, color="k", lw=1)
        for band, style in ((0.1, "--"), (0.2, ":")):
            ax.plot(line, line * (1 + band), color="0.4", ls=style, lw=1, label=f"±{band:.0%}")
            ax.plot(line, line * (1 - band), color="0.4", ls=style, lw=1)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("measured, ms")
        ax.set_ylabel("predicted, ms")
        within = np.abs(predicted[drawn] / measured[drawn] - 1)
        ax.set_title(f"{title}: {np.mean(within <= 0.1):.0%} of {drawn.sum()} within 10 %, "
                     f"{np.mean(within <= 0.2):.0%} within 20 %", fontsize=9)
        handles, labels = ax.get_legend_handles_labels()
        unique = dict(zip(labels, handles))
        ax.legend(unique.values(), unique.keys(), fontsize=7, markerscale=3)
    fig.suptitle(f"{run.label}: predicted against measured, {len(measured)} "
                 + ("inferences" if what == "model" else "kernels"))
    figs.save(fig, f"{prefix}predicted_vs_measured", f"{run.label}: every row's predicted against measured latency")
    # Mean absolute percentage error by op kind and GPU.
    ops = sorted(set(op))
    fig, ax = plt.subplots(figsize=(min(14.0, max(6.4, 0.6 * len(ops) * len(gpus) * len(columns) + 2)), 4.2))
    width = 0.8 / (len(gpus) * len(columns))
    for c, (key, title) in enumerate(columns):
        predicted = np.asarray(v[key], dtype=float)
        err = 100 * np.abs(predicted / measured - 1)
        for i, g in enumerate(gpus):
            mape = [np.nanmean(err[(gpu == g) & (op == o)]) if np.isfinite(err[(gpu == g) & (op == o)]).any() else 0
                    for o in ops]
            x = np.arange(len(ops)) + (c * len(gpus) + i) * width - 0.4 + width / 2
            ax.bar(x, mape, width, color=plt.cm.tab10(i % 10), alpha=1.0 if c == 0 else 0.45,
                   label=f"{g}" + ("" if c == 0 else " (held out)"))
    ax.set_xticks(range(len(ops)))
    ax.set_xticklabels(ops)
    ax.set_ylabel("mean absolute error, %")
    ax.set_title(f"{run.label}: error by {what} and GPU")
    ax.legend(fontsize=7, ncol=2)
    figs.save(fig, f"{prefix}error_by_op_gpu", f"{run.label}: mean absolute percentage error by {what} and GPU")


def plot_compare_single(singles, figs):
    """SM occupancy and DRAM bandwidth of single runs (schedules of one mix) over time, overlaid."""
    drawn = [(r, utilization(r)) for r in singles]
    drawn = [(r, u) for r, u in drawn if u is not None]
    if len(drawn) < 2:
        return
    fig, axes = plt.subplots(2, 1, figsize=(9, 4.6), sharex=True)
    for i, (r, (t, occupancy, dram)) in enumerate(drawn):
        label = f"{r.label} ({r.metric('latency_ms'):.3f} ms)"
        axes[0].step(*binned(t, occupancy, 150), where="post", lw=1.1, color=plt.cm.tab10(i % 10), label=label)
        axes[1].step(*binned(t, dram, 150), where="post", lw=1.1, color=plt.cm.tab10(i % 10), label=label)
    axes[0].set_ylabel("SM slots held, %")
    axes[0].set_ylim(0, 105)
    axes[1].set_ylabel("DRAM, GB/s")
    axes[1].set_xlabel("time, µs")
    for ax in axes:
        ax.grid(alpha=0.3)
    axes[0].legend(fontsize=7)
    axes[0].set_title("SM occupancy and DRAM bandwidth of each run (time averages; its makespan in the legend)")
    figs.save(fig, "compare_utilization", "SM occupancy and DRAM bandwidth over time, every single run compared")


def plot_compare(runs, figs):
    plot_compare_single([r for r in runs if r.kind == "single"], figs)
    searches = [r for r in runs if r.kind == "search"]
    if len(searches) > 1:
        fig, ax = plt.subplots(figsize=(6.4, 4.0))
        for r in searches:
            plot_convergence(ax, r)
        ax.legend(fontsize=8)
        figs.save(fig, "compare_convergence", "convergence of every search compared")
    servings = [r for r in runs if r.kind == "serving"]
    if len(servings) > 1:
        fig, ax = plt.subplots(figsize=(6.4, 4.2))
        drawn = set()
        for r in servings:
            latency_cdf(ax, r, tenant_label_prefix=f"{r.label}: ", slos_drawn=drawn)
        ax.legend(fontsize=7)
        figs.save(fig, "compare_latency_cdf", "latency CDFs of every serving run compared")
        fig, ax = plt.subplots(figsize=(7.5, 3.6))
        for r in servings:
            s = r.columns("serving/sensor", numbers=("time_s", "power_w"))
            line, = ax.plot(s["time_s"], s["power_w"], lw=0.8, label=r.label)
            start, _ = serving_window(r)
            if start > 0:  # each run's warm-up ends at its own time
                ax.axvline(start, color=line.get_color(), ls=":", lw=1, label=f"{r.label}: end of warm-up")
        caps = {r.metric("power_cap_w") for r in servings} - {None}
        for cap in sorted(caps):
            ax.axhline(cap, color="C3", ls="--", lw=1, label=f"cap {cap:g} W")
        ax.set_xlabel("simulated time, s")
        ax.set_ylabel("sensor power, W")
        ax.legend(fontsize=8)
        figs.save(fig, "compare_power", "sensor power of every serving run compared (dotted: where each warm-up ends)")


# --- the page ------------------------------------------------------------------------------------


def metrics_table(run):
    rows = "".join(f"<tr><td>{html.escape(n)}</td><td>{v:.6g}</td><td>{html.escape(u)}</td>"
                   f"<td>{html.escape(d)}</td></tr>" for n, v, u, d in run.metrics())
    return ("<table><tr><th>metric</th><th>value</th><th>unit</th><th>meaning</th></tr>" + rows + "</table>"
            if rows else "")


def search_table(run):
    t = run.columns("trials", numbers=("id",), texts=("status",))
    counts = {}
    for s in t["status"]:
        counts[s] = counts.get(s, 0) + 1
    best = (f"trial {int(run.need('best/trial')[()][0])}, objective {float(run.need('best/objective')[()]):.6g}"
            if "best/trial" in run.file and run.file["best/trial"].shape[0] else "none")
    return (f"<p>{len(t['id'])} trials ({', '.join(f'{k} {v}' for k, v in sorted(counts.items()))}); "
            f"best: {html.escape(best)}.</p>")


def validation_table(run):
    v = run.columns("validation", numbers=VALIDATION_NUMBERS, texts=("gpu", "op"))
    gpu, op = np.array(v["gpu"]), np.array(v["op"])
    measured, predicted = np.asarray(v["measured_ms"], dtype=float), np.asarray(v["predicted_ms"], dtype=float)
    held = np.asarray(v["held_out_ms"], dtype=float)
    rows = ""
    for g in sorted(set(gpu)):
        for o in sorted(set(op[gpu == g])):
            sel = (gpu == g) & (op == o)
            e = 100 * np.abs(predicted[sel] / measured[sel] - 1)
            h = 100 * np.abs(held[sel] / measured[sel] - 1)
            held_cell = f"{np.nanmean(h):.1f} ({np.isfinite(h).sum()})" if np.isfinite(h).any() else "-"
            rows += (f"<tr><td>{html.escape(g)}</td><td>{html.escape(o)}</td><td>{sel.sum()}</td>"
                     f"<td>{e.mean():.1f}</td><td>{np.mean(e <= 20):.0%}</td><td>{held_cell}</td></tr>")
    return ("<table><tr><th>GPU</th><th>op</th><th>rows</th><th>MAPE %</th><th>within 20 %</th>"
            "<th>held-out MAPE %</th></tr>" + rows + "</table>")


def page(runs, figs, sections):
    style = ("body{font-family:sans-serif;max-width:1100px;margin:2em auto;color:#222}"
             "table{border-collapse:collapse;font-size:90%}td,th{border:1px solid #ccc;padding:2px 6px}"
             "img{max-width:100%}figure{margin:1em 0}pre{background:#f6f6f6;padding:8px;overflow:auto;"
             "font-size:85%}figcaption{font-size:90%;color:#555}")
    body = [f"<h1>dse report</h1><p>{len(runs)} file(s): "
            + ", ".join(html.escape(r.path) for r in runs) + "</p>"]
    for run, names in sections:
        body.append(f"<h2>{html.escape(run.label)} ({run.kind})</h2>")
        # What made the file; a field it left empty (no calibration for a search) is left out.
        body.append("<p>" + "; ".join(f"{html.escape(k)}: {html.escape(v)}" for k, v in sorted(run.meta.items())
                                      if v.strip()) + "</p>")
        try:
            body.append(search_table(run) if run.kind == "search" else validation_table(run)
                        if run.kind == "validation" else metrics_table(run))
        except ReportError:
            raise
        except Exception as error:
            raise ReportError(f"{run.path}: expected the {run.kind} layout of docs/results.md, found one dse "
                              f"report cannot tabulate ({describe_error(error)})")
        body.extend(figs.html(*item) for item in figs.items if item[0] in names)
        body.append(f"<details><summary>resolved config</summary><pre>{html.escape(run.config)}</pre></details>")
    compared = [item for item in figs.items if item[0].startswith("compare_")]
    if compared:
        body.append("<h2>compared</h2>")
        body.extend(figs.html(*item) for item in compared)
    # Once loaded, the page records how many of its images decoded (read by tests/report/check_report.sh
    # through headless Chromium's --dump-dom).
    check = ("<script>window.addEventListener('load',function(){var i=document.images,n=0;"
             "for(var k=0;k<i.length;k++)if(i[k].complete&&i[k].naturalWidth>0)n++;"
             "document.body.setAttribute('data-images',i.length);"
             "document.body.setAttribute('data-images-loaded',n);});</script>")
    return (f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>dse report</title><style>{style}</style>"
            f"{check}</head><body>{''.join(body)}</body></html>")


def write_report(runs, figs, compare):
    """Draws every run's figures, then the page; returns index.html's path and the figures' paths.
    A layout the script cannot draw is a ReportError naming its file, never a traceback."""
    sections = []
    for index, run in enumerate(runs):
        prefix = f"{index}_{run.label}_" if len(runs) > 1 else ""
        before = len(figs.items)
        try:
            {"search": plot_search, "serving": plot_serving, "validation": plot_validation,
             "single": plot_single}[run.kind](run, figs, prefix)
        except (ReportError, OutputError):
            raise
        except Exception as error:
            raise ReportError(f"{run.path}: expected the {run.kind} layout of docs/results.md, found one dse report "
                              f"cannot draw ({describe_error(error)})")
        sections.append((run, {item[0] for item in figs.items[before:]}))
    if compare:
        try:
            plot_compare(runs, figs)
        except (ReportError, OutputError):
            raise
        except Exception as error:
            raise ReportError(f"{', '.join(r.path for r in runs)}: expected files dse report can compare, found "
                              f"ones it cannot ({describe_error(error)})")
    return figs.publish(page(runs, figs, sections))


def main(argv):
    parser = argparse.ArgumentParser(prog="dse report", description="Plots and one HTML page for dse result files")
    parser.add_argument("files", nargs="+", help="result files (HDF5) written by dse run")
    parser.add_argument("--out", default=None, help="folder for the plots and index.html (default RUN.report/)")
    parser.add_argument("--format", default="png", choices=["png", "svg"], help="image format (default png)")
    parser.add_argument("--compare", action="store_true", help="also overlay the runs in shared plots")
    parser.add_argument("--json", action="store_true", help="print {\"index\", \"figures\"} as JSON on stdout")
    parser.add_argument("-q", "--quiet", action="store_true", help="print nothing but errors")


    parser.error = lambda message: fail(message)  # one line and exit 2, as every dse command
    args = parser.parse_args(argv)
    try:
        runs = [Run(p) for p in args.files]
    except ReportError as error:
        fail(str(error))
    out = args.out or os.path.splitext(args.files[0])[0] + ".report"
    try:
        os.makedirs(out, exist_ok=True)
    except OSError as error:
        fail(f"{out}: cannot create the report folder: {error.strerror}")
    try:
        figs = Figures(out, args.format)
    except OSError as error:  # a read-only folder: nothing is written
        fail(f"{out}: cannot write in the report folder: {error.strerror}")
    try:
        index, figures = write_report(runs, figs, args.compare)
    except (ReportError, OutputError) as error:
        fail(str(error))
    finally:
        figs.discard()
    if args.json:
        import json

        print(json.dumps({"index": index, "figures": figures}))
    elif not args.quiet:
        print(f"{index} ({len(figures)} figures)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
