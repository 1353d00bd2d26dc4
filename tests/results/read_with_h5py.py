"""Runs `dse run` on the quickstart and reads the result file the way a user would, with h5py.

Usage: read_with_h5py.py PATH/TO/dse   (from the repository root)
"""
import json
import os
import subprocess
import sys
import tempfile

import h5py

dse = sys.argv[1]
with tempfile.TemporaryDirectory() as tmp:
    path = os.path.join(tmp, "quickstart.h5")
    out = subprocess.run([dse, "run", "configs/experiments/quickstart.yaml", "--json", "-q", "-p", f"output={path}"],
                         check=True, capture_output=True, text=True).stdout
    summary = json.loads(out)
    with h5py.File(path, "r") as f:
        assert set(f.keys()) == {"config", "meta", "summary", "ops", "power", "utilization"}, list(f.keys())
        config = f["config"][()].decode()
        assert "resnet50" in config and f"output: {path}" in config, config
        for key in ["dse_version", "git_commit", "date_utc", "host", "config_file", "calibration"]:
            assert f["meta"][key][()].decode(), key
        assert f["meta/kind"][()] == b"single", f["meta/kind"][()]
        files = [p.decode() for p in f["meta/hardware_files"][:]]
        assert files and files[0].endswith("hardware/gpu/h200.yaml"), files
        assert b"sm_count" in f["meta/hardware_file_contents"][0]
        table = f["summary/metrics"]
        names = [n.decode() for n in table["name"][:]]
        assert all(len(table[c]) == len(names) for c in ("value", "unit", "description")), list(table.keys())
        # The HDF5 metric table holds exactly the JSON summary's metrics, with the same values.
        metrics = dict(zip(names, table["value"][:]))
        assert set(metrics) == set(summary["metrics"]), (sorted(metrics), sorted(summary["metrics"]))
        assert all(metrics[n] == summary["metrics"][n] for n in names), (metrics, summary["metrics"])
        units = dict(zip(names, (u.decode() for u in table["unit"][:])))
        assert units["latency_ms"] == "ms" and units["tdp_w"] == "W", units
        assert f["summary/device_kind"][()] == b"gpu" and f["summary/device"][()] == b"h200"
        latency_ms = metrics["latency_ms"]
        ops = f["ops"]
        n = len(ops["name"])
        assert n > 100 and all(len(ops[c]) == n for c in ops.keys()), {c: len(ops[c]) for c in ops.keys()}
        # The ops run back to back on one stream: the last one ends at the run's latency.
        end_us = ops["start_us"][-1] + ops["duration_us"][-1]
        assert abs(end_us / 1000 - latency_ms) < 1e-6 * latency_ms, (end_us, latency_ms)
        assert f["summary/models/name"][0] == b"resnet50" and f["summary/models/batch"][0] == 8
        # The board power over the run: energy_j is its integral, the clock is the run's.
        power = f["power"]
        starts, watts = list(power["start_us"][:]) + [end_us], power["power_w"][:]
        energy = sum(w * (starts[i + 1] - starts[i]) * 1e-6 for i, w in enumerate(watts))
        assert abs(energy - metrics["energy_j"]) < 1e-9 * metrics["energy_j"], (energy, metrics["energy_j"])
        assert all(c == metrics["sm_clock_mhz"] for c in power["clock_mhz"][:])
        assert b"MHz" in f["summary/clock"][()], f["summary/clock"][()]
        # SM occupancy and DRAM bandwidth over the run: shares in [0, 1], bandwidth within the GPU's.
        use = f["utilization"]
        assert len(use["start_us"]) == len(use["sm_occupancy"]) == len(use["dram_gb_per_s"]) > 10
        assert all(0 <= x <= 1 for x in use["sm_occupancy"][:]) and max(use["sm_occupancy"][:]) > 0.5
        assert all(0 <= x <= 4800 for x in use["dram_gb_per_s"][:]), max(use["dram_gb_per_s"][:])  # H200: 4.8 TB/s
    # docs/results.md's example runs as written with what scripts/bootstrap.sh installs (it used
    # pandas, which bootstrap does not install).
    doc = open("docs/results.md", encoding="utf-8").read()
    example = doc.split("```python\n", 1)[1].split("```", 1)[0].replace("results/quickstart.h5", path)
    ran = subprocess.run([sys.executable, "-c", example], capture_output=True, text=True)
    assert ran.returncode == 0 and ran.stdout.strip(), ("docs/results.md's example failed", ran.stderr)
    # An accelerator run: its own metrics (area, the *_vs_tpu_v3 ratios) and word settings.
    accel = os.path.join(tmp, "accel.h5")
    out = subprocess.run([dse, "run", "configs/experiments/accel_tpu_v3.yaml", "--json", "-q", "-p", f"output={accel}",
                          "-p", "workload.models=[{name: mobilenet_v2, batch: 1, dtype: bf16}]", "-p", "device.fusion=epilogue"],
                         check=True, capture_output=True, text=True).stdout
    summary = json.loads(out)
    with h5py.File(accel, "r") as f:
        names = [n.decode() for n in f["summary/metrics/name"][:]]
        metrics = dict(zip(names, f["summary/metrics/value"][:]))
        assert set(metrics) == set(summary["metrics"]), (sorted(metrics), sorted(summary["metrics"]))
        assert all(metrics[n] == summary["metrics"][n] for n in names)
        for name in ("area_mm2", "perf_per_mm2_vs_tpu_v3", "inferences_per_s_vs_tpu_v3", "energy_j"):
            assert name in metrics, (name, names)
        assert f["summary/device_kind"][()] == b"accelerator" and f["summary/fusion"][()] == b"epilogue"
        assert f["meta/kind"][()] == b"single"
    # A serving run on the accelerator: its kind, and the power series and clock levels it served at.
    served = os.path.join(tmp, "served.h5")
    subprocess.run([dse, "run", "configs/experiments/serving_resnet50_dynamic.yaml", "-q", "-p", f"output={served}",
                    "-p", "device={accelerator: tpu_v3_like}", "-p", "workload.models[0].dtype=bf16",
                    "-p", "workload.serving.duration_s=1", "-p", "workload.serving.warmup_s=0.1"], check=True)
    with h5py.File(served, "r") as f:
        assert f["meta/kind"][()] == b"serving", f["meta/kind"][()]
        assert len(f["requests/arrival_s"]) > 1000 and min(f["power/power_w"][:]) > 0
        assert set(f["power/clock_mhz"][:]) == {940.0}, set(f["power/clock_mhz"][:])
    leftovers = [p for p in os.listdir(tmp) if p not in ("quickstart.h5", "accel.h5", "served.h5")]
    assert not leftovers, leftovers
print("1 passed, 0 failed")
