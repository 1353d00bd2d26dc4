"""scripts/dse_report.py on its own (ctest report.script), on result files written here with h5py:
bad and foreign layouts exit 2 with one line naming the file (never a traceback); a folder that
cannot take the report (read-only, full) keeps what it held and no partial set of figures; and the
figures as a new user reads them: one colour scale per (batch size, clock) figure that describes
both panels, tick labels that do not overlap, no offset above an axis, tenants in their own colours,
the warm-up shaded, the legend clear of the title, units on the axes, whole ticks for integer
parameters, and no empty fields on the page (issue 54).

Usage: /usr/bin/python3 tests/report/test_report_script.py   (from the repository root)
"""
import importlib.util
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import unittest

import h5py
import numpy as np

SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts", "dse_report.py")
spec = importlib.util.spec_from_file_location("dse_report", SCRIPT)
report = importlib.util.module_from_spec(spec)
spec.loader.exec_module(report)
plt = report.plt

WORK = tempfile.mkdtemp(prefix="dse_report_script.")


def strings(f, name, values):
    f.create_dataset(name, data=[v.encode() for v in values], dtype=h5py.string_dtype())


def write_meta(f, kind, config, calibration=""):
    f["config"] = config
    for key, value in (("kind", kind), ("calibration", calibration), ("dse_version", "0.1.0")):
        f[f"meta/{key}"] = value


def write_metrics(f, group, metrics):
    strings(f, f"{group}/name", [m[0] for m in metrics])
    f[f"{group}/value"] = np.array([m[1] for m in metrics], dtype=float)
    strings(f, f"{group}/unit", [m[2] for m in metrics])
    strings(f, f"{group}/description", ["" for _ in metrics])


def serving_file(path, clocks=(1000.0, 1500.0), clock_noise=0.0, latency_ms=(1.5, 9), slo_ms=(20, 50)):
    """Two tenants, a 2 s warm-up of a 10 s window, batches at the given clocks."""
    rng = np.random.default_rng(1)
    with h5py.File(path, "w") as f:
        tenants = "".join(f"      - {{slo_ms: {slo}}}\n" for slo in slo_ms) if slo_ms else "      - {}\n      - {}\n"
        write_meta(f, "serving", "workload:\n  serving:\n    tenants:\n" + tenants)
        n = 2000
        arrival = np.sort(rng.uniform(0, 10, n))
        f["requests/arrival_s"] = arrival
        f["requests/end_s"] = arrival + rng.uniform(latency_ms[0], latency_ms[1], n) * 1e-3
        f["requests/tenant"] = np.arange(n) % 2
        t = np.arange(0, 10, 0.1)
        f["serving/sensor/time_s"] = t
        f["serving/sensor/power_w"] = 200 + 50 * np.sin(t)
        f["serving/sensor/clock_mhz"] = 1260 + clock_noise * np.arange(t.size)  # float noise only
        m = 400
        start = np.sort(rng.uniform(0, 10, m))
        f["serving/batches/start_s"] = start
        f["serving/batches/end_s"] = start + 0.004
        f["serving/batches/size"] = rng.integers(1, 5, m)
        f["serving/batches/tenant"] = np.arange(m) % 2
        f["serving/batches/clock_mhz"] = np.array(clocks)[np.arange(m) % len(clocks)]
        f["serving/batches/logged_power_w"] = rng.uniform(150, 260, m)
        strings(f, "serving/tenant_models", ["resnet50", "bert_base"])
        f["serving/window_start_s"] = 2.0
        f["serving/window_end_s"] = 10.0
        write_metrics(f, "summary/metrics", [("power_cap_w", 250, "W"), ("sm_clock_mhz", 1260, "MHz")])


def search_file(path):
    """Latency (ms, over 50x) against throughput; an integer parameter of 1 to 3 cores."""
    rng = np.random.default_rng(2)
    with h5py.File(path, "w") as f:
        write_meta(f, "search", "search:\n  objective:\n    - {maximize: throughput_per_s}\n"
                                "    - {minimize: latency_ms}\n")
        n = 40
        f["trials/id"] = np.arange(n)
        strings(f, "trials/status", ["ok"] * n)
        strings(f, "trials/message", [""] * n)
        throughput = rng.uniform(100, 20000, n)
        f["trials/objective"] = throughput
        f["trials/best_so_far"] = np.maximum.accumulate(throughput)
        f["trials/metrics/throughput_per_s"] = throughput
        f["trials/metrics/latency_ms"] = rng.uniform(0.2, 40, n)
        strings(f, "trials/parameters/device.cores.x", [str(1 + i % 3) for i in range(n)])
        f["pareto/trial"] = np.array([0, 1])
        f["best/trial"] = np.array([0])
        f["best/objective"] = throughput[0]


def single_file(path, kinds=14):
    """One stream of kernels of many op kinds: a legend of several rows."""
    with h5py.File(path, "w") as f:
        write_meta(f, "single", "name: x\n", calibration="default calibration")
        n = 3 * kinds
        f["ops/start_us"] = np.arange(n) * 10.0
        f["ops/duration_us"] = np.full(n, 9.0)
        f["ops/stream"] = np.zeros(n, dtype=int)
        f["ops/model"] = np.zeros(n, dtype=int)
        strings(f, "ops/kind", [f"kind_number_{i % kinds}" for i in range(n)])
        write_metrics(f, "summary/metrics", [("latency_ms", n * 0.01, "ms")])


def validation_file(path):
    """Kernels of 12 to 50 µs on two GPUs: log axes over less than a decade."""
    rng = np.random.default_rng(3)
    with h5py.File(path, "w") as f:
        write_meta(f, "validation", "files: [x.csv]\n")
        n = 60
        measured = rng.uniform(0.012, 0.05, n)
        f["validation/measured_ms"] = measured
        f["validation/predicted_ms"] = measured * rng.uniform(0.85, 1.15, n)
        f["validation/held_out_ms"] = np.full(n, np.nan)
        strings(f, "validation/gpu", ["t4", "a100"] * (n // 2))
        strings(f, "validation/op", ["ln", "softmax", "bmm"] * (n // 3))


class Capture(report.Figures):
    """Keeps each figure (closed, still readable) by name."""

    def __init__(self, out_dir, fmt="png"):
        super().__init__(out_dir, fmt)
        self.figures = {}

    def save(self, fig, name, caption):
        path = super().save(fig, name, caption)
        fig.canvas.draw()
        self.figures[name] = fig
        return path


def drawn(plotter, path):
    out = tempfile.mkdtemp(dir=WORK)
    figs = Capture(out)
    plotter(report.Run(path), figs, "")
    shutil.rmtree(out, ignore_errors=True)
    return figs.figures


def run_script(*args, limit_file_bytes=None):
    def limit():
        if limit_file_bytes:
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit_file_bytes, limit_file_bytes))
    return subprocess.run([sys.executable, SCRIPT, *args], capture_output=True, text=True, preexec_fn=limit)


def overlapping_labels(fig):
    """Pairs of visible tick labels on one axis whose boxes overlap."""
    renderer = fig.canvas.get_renderer()
    found = []
    for ax in fig.axes:
        if not ax.get_visible():
            continue
        for axis in (ax.xaxis, ax.yaxis):
            lo, hi = sorted(axis.get_view_interval())
            boxes = [(label.get_text(), label.get_window_extent(renderer))
                     for locs, labels in ((axis.get_majorticklocs(), axis.get_majorticklabels()),
                                          (axis.get_minorticklocs(), axis.get_minorticklabels()))
                     for loc, label in zip(locs, labels)
                     if lo <= loc <= hi and label.get_visible() and label.get_text()]
            for i, (a, box_a) in enumerate(boxes):
                for b, box_b in boxes[i + 1:]:
                    if box_a.overlaps(box_b):
                        found.append((a, b))
    return found


class BadInput(unittest.TestCase):
    """A layout the report cannot read: exit 2, one line naming the file, nothing written."""

    def check_refused(self, path, expected):
        out = os.path.join(WORK, "bad_out")
        result = run_script(path, "--out", out)
        self.assertEqual(result.returncode, 2, result.stderr)
        self.assertNotIn("Traceback", result.stderr)
        self.assertEqual(len(result.stderr.strip().splitlines()), 1, result.stderr)
        self.assertTrue(result.stderr.startswith(f"dse: error: {path}: "), result.stderr)
        self.assertIn(expected, result.stderr)
        self.assertFalse([p for p in os.listdir(out) if p.endswith(".png") or p == "index.html"]
                         if os.path.isdir(out) else [])

    def malformed(self, name, build):
        path = os.path.join(WORK, name)
        with h5py.File(path, "w") as f:
            build(f)
        return path

    def test_layouts_it_cannot_read(self):
        def requests_without_arrivals(f):  # a file from before /meta/kind: told by its groups
            f["config"] = "x: 1\n"
            f["meta/host"] = "vm"
            f["requests/end_s"] = [1.0]

        def config_group(f):
            f["config/x"] = 1
            f["meta/kind"] = "single"

        def meta_dataset(f):
            f["config"] = "x: 1\n"
            f["meta"] = [1, 2]

        def unequal_ops(f):
            write_meta(f, "single", "x: 1\n")
            f["ops/start_us"] = [0.0, 1.0, 2.0]
            f["ops/duration_us"] = [1.0]
            f["ops/stream"] = [0, 0, 0]
            strings(f, "ops/kind", ["a", "b", "c"])

        def text_metrics(f):
            search_file_into(f)
            del f["trials/metrics/latency_ms"]
            strings(f, "trials/metrics/latency_ms", ["fast"] * 40)

        def serving_without_sensor(f):
            write_meta(f, "serving", "x: 1\n")
            f["requests/arrival_s"] = [0.0, 1.0]
            f["requests/end_s"] = [0.5, 1.5]
            f["requests/tenant"] = [0, 0]

        def no_positive_measurement(f):
            write_meta(f, "validation", "x: 1\n")
            for key in ("measured_ms", "predicted_ms", "held_out_ms"):
                f[f"validation/{key}"] = [0.0, 0.0]
            strings(f, "validation/gpu", ["t4", "t4"])
            strings(f, "validation/op", ["ln", "ln"])

        def window_as_text(f):
            with h5py.File(os.path.join(WORK, "serving_src.h5"), "r") as src:
                for key in src:
                    src.copy(key, f)
            del f["serving/window_start_s"]
            f["serving/window_start_s"] = "two seconds"

        serving_file(os.path.join(WORK, "serving_src.h5"))
        cases = [
            ("requests_without_arrivals.h5", requests_without_arrivals, "/requests (a serving run)"),
            ("config_group.h5", config_group, "/config: expected the resolved YAML as one string"),
            ("meta_dataset.h5", meta_dataset, "/meta: expected a group"),
            ("unequal_ops.h5", unequal_ops, "/ops: expected columns of one length"),
            ("text_metrics.h5", text_metrics, "expected the search layout"),
            ("serving_without_sensor.h5", serving_without_sensor, "expected /serving/sensor"),
            ("no_positive_measurement.h5", no_positive_measurement, "expected the validation layout"),
            ("window_as_text.h5", window_as_text, "expected the serving layout"),
        ]
        for name, build, expected in cases:
            with self.subTest(name):
                self.check_refused(self.malformed(name, build), expected)


def search_file_into(f):
    path = os.path.join(WORK, "search_src.h5")
    search_file(path)
    with h5py.File(path, "r") as src:
        for key in src:
            src.copy(key, f)


class Output(unittest.TestCase):
    """The report folder gets the whole report or keeps what it had."""

    def setUp(self):
        self.serving = os.path.join(WORK, "serving.h5")
        serving_file(self.serving)
        self.out = tempfile.mkdtemp(dir=WORK)
        with open(os.path.join(self.out, "keep.txt"), "w") as f:
            f.write("an earlier file\n")

    def test_a_full_disk_leaves_the_folder_as_it_was(self):
        whole = tempfile.mkdtemp(dir=WORK)
        result = run_script(self.serving, "--out", whole, "--json")
        self.assertEqual(result.returncode, 0, result.stderr)
        sizes = [os.path.getsize(os.path.join(whole, p)) for p in ("latency_cdf.png", "power_clock_batch.png",
                                                                  "batch_clock.png")]
        self.assertGreater(max(sizes), sizes[0], sizes)  # an earlier figure fits under the limit below
        # Writes past the largest figure's size fail (EFBIG), as on a full disk (ENOSPC).
        result = run_script(self.serving, "--out", self.out, limit_file_bytes=max(sizes) - 1)
        self.assertEqual(result.returncode, 2, result.stderr)
        self.assertNotIn("Traceback", result.stderr)
        self.assertTrue(result.stderr.startswith(f"dse: error: {self.out}: cannot write "), result.stderr)
        self.assertEqual(sorted(os.listdir(self.out)), ["keep.txt"])

    @unittest.skipIf(os.geteuid() == 0, "root writes into a read-only folder")
    def test_a_read_only_folder_is_refused(self):
        os.chmod(self.out, 0o555)
        try:
            result = run_script(self.serving, "--out", self.out)
        finally:
            os.chmod(self.out, 0o755)
        self.assertEqual(result.returncode, 2, result.stderr)
        self.assertEqual(result.stderr.strip(), f"dse: error: {self.out}: cannot write in the report folder: "
                                                "Permission denied")
        self.assertEqual(sorted(os.listdir(self.out)), ["keep.txt"])

    def test_a_link_in_the_folder_is_replaced_not_written_through(self):
        target = os.path.join(WORK, "target.txt")
        with open(target, "w") as f:
            f.write("not a figure\n")
        os.symlink(target, os.path.join(self.out, "latency_cdf.png"))
        result = run_script(self.serving, "--out", self.out, "-q")
        self.assertEqual(result.returncode, 0, result.stderr)
        with open(target) as f:
            self.assertEqual(f.read(), "not a figure\n")
        self.assertFalse(os.path.islink(os.path.join(self.out, "latency_cdf.png")))
        self.assertEqual(sorted(os.listdir(self.out)), ["batch_clock.png", "index.html", "keep.txt",
                                                        "latency_cdf.png", "power_clock_batch.png"])


class Figures(unittest.TestCase):
    """The figures as a new user reads them."""

    @classmethod
    def setUpClass(cls):
        cls.serving = os.path.join(WORK, "serving_fig.h5")
        serving_file(cls.serving)
        cls.one_clock = os.path.join(WORK, "serving_one_clock.h5")
        serving_file(cls.one_clock, clocks=(1260.0,), clock_noise=1e-9)
        cls.search = os.path.join(WORK, "search_fig.h5")
        search_file(cls.search)
        cls.single = os.path.join(WORK, "single_fig.h5")
        single_file(cls.single)
        cls.validation = os.path.join(WORK, "validation_fig.h5")
        validation_file(cls.validation)
        cls.narrow = os.path.join(WORK, "serving_narrow.h5")  # latencies of 1.5 to 2.25 ms, no SLO
        serving_file(cls.narrow, latency_ms=(1.5, 2.25), slo_ms=())

    def test_one_colour_scale_describes_both_panels(self):
        fig = drawn(report.plot_serving, self.serving)["batch_clock"]
        data_axes = [ax for ax in fig.axes if ax.collections and ax.get_label() != "<colorbar>"]
        norms = {(c.norm.vmin, c.norm.vmax) for ax in data_axes for c in ax.collections if c.get_array() is not None}
        self.assertEqual(norms, {(1000.0, 1500.0)})
        colorbars = [ax for ax in fig.axes if ax.get_label() == "<colorbar>"]
        self.assertEqual(len(colorbars), 1)
        self.assertEqual(tuple(sorted(colorbars[0].get_ylim())), (1000.0, 1500.0))
        # Every batch at one clock: no scale, the clock said in the title.
        fig = drawn(report.plot_serving, self.one_clock)["batch_clock"]
        self.assertFalse([ax for ax in fig.axes if ax.get_label() == "<colorbar>"])
        self.assertIn("every batch at 1260 MHz", fig._suptitle.get_text())

    def test_no_offset_from_float_noise(self):
        fig = drawn(report.plot_serving, self.one_clock)["power_clock_batch"]
        for ax in fig.axes:
            for axis in (ax.xaxis, ax.yaxis):
                self.assertEqual(axis.get_offset_text().get_text(), "", ax.get_ylabel())
        # The clock's labels are the clock (1250, 1275), not the noise (1260.0000000001).
        labels = [t.get_text() for t in fig.axes[1].get_yticklabels() if t.get_text()]
        self.assertTrue(labels and all(len(label) <= 5 for label in labels), labels)
        low, high = fig.axes[1].get_ylim()
        self.assertTrue(low < 1260 < high and high - low > 10, (low, high))

    def test_tick_labels_do_not_overlap(self):
        for path, plotter in ((self.serving, report.plot_serving), (self.search, report.plot_search),
                              (self.single, report.plot_single), (self.validation, report.plot_validation),
                              (self.narrow, report.plot_serving)):
            for name, fig in drawn(plotter, path).items():
                with self.subTest(name):
                    self.assertEqual(overlapping_labels(fig), [])

    def test_tenants_in_their_own_colours_and_the_warm_up_shaded(self):
        figures = drawn(report.plot_serving, self.serving)
        power, clock, batches = figures["power_clock_batch"].axes[:3]
        colours = {tuple(line.get_color()) if not isinstance(line.get_color(), str) else line.get_color()
                   for line in batches.get_lines()}
        self.assertEqual(len(colours), 2)
        self.assertEqual({t.get_text() for t in batches.get_legend().get_texts()}, {"resnet50", "bert_base"})
        for ax in (power, clock, batches):
            spans = [np.asarray(p.get_xy())[:, 0] for p in ax.patches if hasattr(p, "get_xy")]
            self.assertTrue(any(abs(x.min()) < 1e-9 and abs(x.max() - 2.0) < 1e-9 for x in spans), spans)
        self.assertIn("warm-up (not measured)", [t.get_text() for t in power.get_legend().get_texts()])
        markers = {c.get_paths()[0].vertices.tobytes() for c in figures["batch_clock"].axes[0].collections}
        self.assertEqual(len(markers), 2)

    def test_the_legend_clear_of_the_title(self):
        fig = drawn(report.plot_single, self.single)["timeline"]
        renderer = fig.canvas.get_renderer()
        ax = fig.axes[0]
        legend, title = ax.get_legend().get_window_extent(renderer), ax.title.get_window_extent(renderer)
        self.assertFalse(legend.overlaps(title), (legend, title))
        self.assertGreater(len(ax.get_legend().get_texts()), 6)  # more than one row

    def test_units_and_whole_ticks(self):
        figures = drawn(report.plot_search, self.search)
        pareto = figures["pareto_throughput_per_s_latency_ms"].axes[0]
        self.assertEqual(pareto.get_xlabel(), "throughput_per_s, 1/s (maximize)")
        self.assertEqual(pareto.get_ylabel(), "latency_ms, ms (minimize)")
        parameters = figures["parameters"].axes[0]
        self.assertEqual(parameters.get_ylabel(), "throughput_per_s, 1/s")
        ticks = [t for t in parameters.get_xticks() if parameters.get_xlim()[0] <= t <= parameters.get_xlim()[1]]
        self.assertTrue(ticks and all(t == int(t) for t in ticks), ticks)
        batch_axis = drawn(report.plot_serving, self.serving)["batch_clock"].axes[0]
        self.assertTrue(all(t == int(t) for t in batch_axis.get_xticks()), batch_axis.get_xticks())

    def test_the_page_leaves_out_empty_fields(self):
        out = tempfile.mkdtemp(dir=WORK)
        result = run_script(self.search, "--out", out, "-q")
        self.assertEqual(result.returncode, 0, result.stderr)
        with open(os.path.join(out, "index.html"), encoding="utf-8") as f:
            page = f.read()
        made = [line for line in page.replace("<p>", "\n").split("\n") if "dse_version" in line]
        self.assertEqual(made, ["dse_version: 0.1.0; kind: search</p>"])


if __name__ == "__main__":
    try:
        unittest.main()
    finally:
        shutil.rmtree(WORK, ignore_errors=True)
