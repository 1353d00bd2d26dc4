"""Runs `dse run` on the quickstart and reads the result file the way a user would, with h5py.

Usage: read_with_h5py.py PATH/TO/dse   (from the repository root)
"""
import os
import subprocess
import sys
import tempfile

import h5py

dse = sys.argv[1]
with tempfile.TemporaryDirectory() as tmp:
    path = os.path.join(tmp, "quickstart.h5")
    subprocess.run([dse, "run", "configs/experiments/quickstart.yaml", "-q", "-p", f"output={path}"], check=True)
    with h5py.File(path, "r") as f:
        assert set(f.keys()) == {"config", "meta", "summary", "ops"}, list(f.keys())
        config = f["config"][()].decode()
        assert "resnet50" in config and f"output: {path}" in config, config
        for key in ["dse_version", "git_commit", "date_utc", "host", "config_file", "calibration"]:
            assert f["meta"][key][()].decode(), key
        files = [p.decode() for p in f["meta/hardware_files"][:]]
        assert files and files[0].endswith("hardware/gpu/h200.yaml"), files
        assert b"sm_count" in f["meta/hardware_file_contents"][0]
        latency_ms = f["summary/latency_ms"][()]
        ops = f["ops"]
        n = len(ops["name"])
        assert n > 100 and all(len(ops[c]) == n for c in ops.keys()), {c: len(ops[c]) for c in ops.keys()}
        # The ops run back to back on one stream: the last one ends at the run's latency.
        end_us = ops["start_us"][-1] + ops["duration_us"][-1]
        assert abs(end_us / 1000 - latency_ms) < 1e-6 * latency_ms, (end_us, latency_ms)
        assert f["summary/models/name"][0] == b"resnet50" and f["summary/models/batch"][0] == 8
    leftovers = [p for p in os.listdir(tmp) if p != "quickstart.h5"]
    assert not leftovers, leftovers
print("1 passed, 0 failed")
