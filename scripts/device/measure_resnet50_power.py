#!/usr/bin/env python3
"""A whole network's latency, power and clock, to check `dse run configs/experiments/quickstart.yaml`
(ResNet-50, FP16) end to end on the GPU of this machine. For each batch size: torchvision's
ResNet-50 (random weights, eval, FP16, NCHW, cudnn.benchmark) captured in a CUDA graph so that no
host launch gap sits between its kernels, its forward pass timed over 50 graph replays between two
CUDA events (after 20 warm-up replays), then replayed back to back for HOLD seconds while NVML is
read every 20 ms (SM clock, power); the medians over the hold's last half. Observes only: never sets
clocks, limits or modes.

    python3 scripts/device/measure_resnet50_power.py OUT_DIR [--batches 8 64] [--hold 12]
        [--channels-last] [--profile BATCH]

Writes OUT_DIR/resnet50_power{,_cl}.csv (batch, latency_ms, sm_clock_mhz, power_w, samples),
OUT_DIR/resnet50_power{,_cl}_samples.csv (every NVML reading) and, with --profile, the kernels of
one eager forward pass at that batch from torch.profiler, summed by name
(resnet50_kernels_b<BATCH>{,_cl}.csv: kernel, calls, total_us)."""
import argparse
import csv
import statistics
import threading
import time
from pathlib import Path

import pynvml
import torch
import torchvision


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out")
    parser.add_argument("--batches", type=int, nargs="+", default=[8, 64])
    parser.add_argument("--hold", type=float, default=12.0)
    parser.add_argument("--channels-last", action="store_true", help="NHWC tensors, as cuDNN's tensor-core kernels take")
    parser.add_argument("--profile", type=int, default=0, help="also list the kernels of one pass at this batch")
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    torch.backends.cudnn.benchmark = True
    pynvml.nvmlInit()
    handle = pynvml.nvmlDeviceGetHandleByIndex(0)
    model = torchvision.models.resnet50().cuda().half().eval()
    layout = torch.channels_last if args.channels_last else torch.contiguous_format
    model = model.to(memory_format=layout)
    suffix = "_cl" if args.channels_last else ""
    results, samples = [], []
    for batch in args.batches:
        x = torch.randn(batch, 3, 224, 224, device="cuda", dtype=torch.float16).to(memory_format=layout)
        with torch.no_grad():
            for _ in range(5):  # cudnn.benchmark picks its algorithms outside the capture
                model(x)
            torch.cuda.synchronize()
            graph = torch.cuda.CUDAGraph()
            stream = torch.cuda.Stream()
            stream.wait_stream(torch.cuda.current_stream())
            with torch.cuda.stream(stream):
                model(x)
                torch.cuda.synchronize()
                with torch.cuda.graph(graph):
                    model(x)
            torch.cuda.current_stream().wait_stream(stream)
        for _ in range(20):
            graph.replay()
        torch.cuda.synchronize()
        start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        for _ in range(50):
            graph.replay()
        stop.record()
        stop.synchronize()
        latency_ms = start.elapsed_time(stop) / 50

        readings = []
        done = threading.Event()
        t0 = time.perf_counter()

        def sample():
            while not done.is_set():
                readings.append((time.perf_counter() - t0, pynvml.nvmlDeviceGetClockInfo(handle, pynvml.NVML_CLOCK_SM),
                                 pynvml.nvmlDeviceGetPowerUsage(handle) / 1000.0))
                time.sleep(0.02)

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        while time.perf_counter() - t0 < args.hold:
            for _ in range(10):
                graph.replay()
            torch.cuda.synchronize()
        done.set()
        sampler.join()
        steady = [r for r in readings if r[0] >= args.hold / 2]
        results.append((batch, f"{latency_ms:.4f}", statistics.median(r[1] for r in steady),
                        f"{statistics.median(r[2] for r in steady):.1f}", len(steady)))
        samples += [(batch, f"{t:.3f}", mhz, f"{w:.1f}") for t, mhz, w in readings]
        print(f"resnet50 batch {batch}: {latency_ms:.4f} ms, {results[-1][2]} MHz, {results[-1][3]} W", flush=True)
        del graph
        torch.cuda.empty_cache()
    if args.profile:
        x = torch.randn(args.profile, 3, 224, 224, device="cuda", dtype=torch.float16).to(memory_format=layout)
        with torch.no_grad():
            model(x)
            torch.cuda.synchronize()
            with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
                model(x)
                torch.cuda.synchronize()
        totals = {}
        for event in prof.events():
            if str(getattr(event, "device_type", "")).endswith("CUDA"):
                calls, us = totals.get(event.name, (0, 0.0))
                totals[event.name] = (calls + 1, us + getattr(event, "device_time", getattr(event, "cuda_time", 0.0)))
        with open(out / f"resnet50_kernels_b{args.profile}{suffix}.csv", "w", newline="") as f:
            writer = csv.writer(f)
            writer.writerow(["kernel", "calls", "total_us"])
            for name, (calls, us) in sorted(totals.items(), key=lambda item: -item[1][1]):
                writer.writerow([name, calls, f"{us:.1f}"])
    with open(out / f"resnet50_power{suffix}.csv", "w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["batch", "latency_ms", "sm_clock_mhz", "power_w", "samples"])
        writer.writerows(results)
    with open(out / f"resnet50_power{suffix}_samples.csv", "w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["batch", "t_s", "sm_mhz", "power_w"])
        writer.writerows(samples)


if __name__ == "__main__":
    main()
