#!/usr/bin/env python3
"""A step load for the firmware's power window (docs/power.md, Not modelled): an FP16 GEMM
(8192^3, pseudo-random operands) switched on for ON seconds and off for OFF seconds, CYCLES times,
while NVML is read every ~10 ms: the SM clock, the averaged power (nvmlDeviceGetPowerUsage), the
instantaneous power where the driver has the field, and the clock-event (throttle) reasons.
How fast the averaged power follows the step sets its averaging window; how the clock moves after
the step, the firmware's settling. Observes only: never sets clocks, limits or modes.

    python3 scripts/device/power_step.py OUT_DIR [--on 2] [--off 2] [--cycles 3]

Writes OUT_DIR/power_step.csv (t_s, phase, sm_mhz, power_avg_w, power_instant_w, reasons) and
OUT_DIR/power_step_rates.csv (per ON phase: GEMMs run and TFLOPS)."""
import argparse
import csv
import threading
import time
from pathlib import Path

import pynvml
import torch


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out")
    parser.add_argument("--on", type=float, default=2.0)
    parser.add_argument("--off", type=float, default=2.0)
    parser.add_argument("--cycles", type=int, default=3)
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)

    pynvml.nvmlInit()
    handle = pynvml.nvmlDeviceGetHandleByIndex(0)
    instant_field = getattr(pynvml, "NVML_FI_DEV_POWER_INSTANT", None)
    reasons_call = getattr(pynvml, "nvmlDeviceGetCurrentClocksEventReasons",
                           getattr(pynvml, "nvmlDeviceGetCurrentClocksThrottleReasons", None))
    phase = ["idle"]
    samples = []
    stop = threading.Event()
    t0 = time.perf_counter()

    def sample():
        while not stop.is_set():
            t = time.perf_counter() - t0
            sm = pynvml.nvmlDeviceGetClockInfo(handle, pynvml.NVML_CLOCK_SM)
            avg = pynvml.nvmlDeviceGetPowerUsage(handle) / 1000.0
            instant = ""
            if instant_field is not None:
                try:
                    value = pynvml.nvmlDeviceGetFieldValues(handle, [instant_field])[0]
                    if value.nvmlReturn == 0:
                        instant = f"{value.value.uiVal / 1000.0:.1f}"
                except pynvml.NVMLError:
                    pass
            reasons = f"0x{reasons_call(handle):x}" if reasons_call else ""
            samples.append((f"{t:.4f}", phase[0], sm, f"{avg:.1f}", instant, reasons))
            time.sleep(0.01)

    n = 8192
    a = torch.randn(n, n, device="cuda", dtype=torch.float16)
    b = torch.randn(n, n, device="cuda", dtype=torch.float16)
    torch.cuda.synchronize()
    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    time.sleep(1.0)  # a second of idle before the first step
    rates = []
    for cycle in range(args.cycles):
        phase[0] = f"on{cycle}"
        begin = time.perf_counter()
        count = 0
        while time.perf_counter() - begin < args.on:
            for _ in range(4):
                torch.mm(a, b)
            count += 4
            torch.cuda.synchronize()
        seconds = time.perf_counter() - begin
        rates.append((cycle, f"{begin - t0:.4f}", count, f"{count * 2 * n**3 / seconds / 1e12:.1f}"))
        phase[0] = f"off{cycle}"
        time.sleep(args.off)
    stop.set()
    sampler.join()
    with open(out / "power_step.csv", "w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["t_s", "phase", "sm_mhz", "power_avg_w", "power_instant_w", "reasons"])
        writer.writerows(samples)
    with open(out / "power_step_rates.csv", "w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["cycle", "start_s", "gemms", "tflops"])
        writer.writerows(rates)
    print(f"power_step: {len(samples)} samples, rates {rates}")


if __name__ == "__main__":
    main()
