#!/usr/bin/env python3
"""What scripts/device/measure_gemm_clocks.sh observed: per phase (idle, FP32 SGEMM, FP16 tensor-core
GEMM, DRAM stream), the median SM clock, power and rate over its steady part (after the first 5 s).
    python3 scripts/device/summarize_gemm_clocks.py OUT_DIR   -> prints, and writes OUT_DIR/summary.json
Compare with the modelled clock `dse validate gemm OUT_DIR/gemm_fp16.csv --gpu NAME` prints."""
import csv
import json
import statistics
import sys
import time
from pathlib import Path


def smi_time(stamp):
    # nvidia-smi's timestamp, local time: "2026/12/01 03:15:00.123"
    whole, _, fraction = stamp.strip().partition(".")
    return time.mktime(time.strptime(whole, "%Y/%m/%d %H:%M:%S")) + float("0." + (fraction or "0"))


def number(text):
    try:
        return float(text.strip())
    except ValueError:
        return None  # "[N/A]" and the like


def main(out):
    out = Path(out)
    with open(out / "smi_samples.csv") as f:
        rows = list(csv.reader(f))
    header = [h.strip() for h in rows[0]]

    def column(*prefixes):  # nvidia-smi names a queried field its long name, with or without units
        for i, name in enumerate(header):
            if name.startswith(prefixes):
                return i
        sys.exit(f"{out / 'smi_samples.csv'}: no column {' or '.join(prefixes)} in {header}")

    t, sm, power = column("timestamp"), column("clocks.current.sm", "clocks.sm"), column("power.draw")
    samples = []
    for row in rows[1:]:
        if len(row) != len(header):
            continue
        samples.append({"t": smi_time(row[t]), "sm_mhz": number(row[sm]), "power_w": number(row[power]),
                        "reasons": row[-1].strip()})
    summary = {}
    with open(out / "phases.csv") as f:
        for phase in csv.DictReader(f):
            start, end = float(phase["start_unix_s"]) + 5, float(phase["end_unix_s"])
            steady = [s for s in samples if start <= s["t"] <= end]
            rates = []  # TFLOPS for the GEMM holds, GB/s for the stream; none at idle
            if phase["phase"] != "idle":
                with open(out / f"{phase['phase']}.csv") as g:
                    for r in csv.DictReader(g):
                        if float(r["elapsed_s"]) >= 5:
                            rates.append(float(r.get("tflops") or r.get("gbps")))
            clocks = [s["sm_mhz"] for s in steady if s["sm_mhz"] is not None]
            power = [s["power_w"] for s in steady if s["power_w"] is not None]
            summary[phase["phase"]] = {
                "samples": len(steady),
                "sm_clock_mhz_median": statistics.median(clocks) if clocks else None,
                "sm_clock_mhz_min": min(clocks) if clocks else None,
                "power_w_median": statistics.median(power) if power else None,
                "rate_median": statistics.median(rates) if rates else None,
                "rate_unit": "GB/s" if phase["phase"] == "hold_stream" else "TFLOPS",
                "throttle_reasons_seen": sorted({s["reasons"] for s in steady}),
            }
    (out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")
    print(json.dumps(summary, indent=2))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
