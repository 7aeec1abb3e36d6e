#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Which cuBLAS kernel a bf16 linear layer (torch's x @ w.t()) runs, and its cold time, on the
model projections at the token counts where the GEMM's dispatch is weakest (issue 43). cuBLAS's
Hopper kernels are named for their tile (nvjet_sm90_tst_<weight rows>x<token rows>_<K block>x<stages>
_<cluster>...), so the list says which tiles a shape wants. Needs torch with CUDA (the lent GPU
machine has it); writes one line a shape: M N K median-cold-us kernel(s).

    python3 tools/cublas_kernel_names.py OUT.txt [--rows 3,16,...] [--shapes 4096x4096,...]

The record of 2026-12-06 (H100): bench/results/h100-721b0a1/cublas-kernels-torch-linear.txt."""
import argparse
import sys

ROWS = (3, 16, 48, 64, 70, 98, 123, 138, 154, 194, 217, 272, 305, 341, 428, 537, 601, 845, 1060, 2048)
SHAPES = ("4096x4096", "6144x4096", "14336x4096", "4096x14336", "2560x4096", "128256x4096", "8192x28672")


def kernels_of(torch, x, w):
    """The CUDA kernels one x @ w.t() launches, by name (a split-K reduce or memset included)."""
    from torch.profiler import ProfilerActivity, profile
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        x @ w.t()
        torch.cuda.synchronize()
    return [e.name for e in prof.events() if e.device_type == torch.autograd.DeviceType.CUDA]


def cold_us(torch, x, w, flush, calls=10):
    """The median of `calls` timings of x @ w.t(), each after L2 is flushed."""
    times = []
    for _ in range(calls):
        flush.zero_()
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        x @ w.t()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end) * 1000)
    return sorted(times)[len(times) // 2]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out")
    ap.add_argument("--rows", default=",".join(map(str, ROWS)))
    ap.add_argument("--shapes", default=",".join(SHAPES), help="N x K of the weights, comma-separated")
    args = ap.parse_args()
    import torch
    torch.manual_seed(0)
    flush = torch.empty(256 << 20, dtype=torch.uint8, device="cuda")
    lines = []
    for shape in args.shapes.split(","):
        n, k = map(int, shape.split("x"))
        w = torch.randn(n, k, device="cuda", dtype=torch.bfloat16)
        for m in map(int, args.rows.split(",")):
            x = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
            for _ in range(3):
                x @ w.t()
            names = " | ".join(kernels_of(torch, x, w))
            lines.append(f"{m} {n} {k} {cold_us(torch, x, w, flush):.2f} {names}")
            print(lines[-1], flush=True)
    with open(args.out, "w") as f:
        f.write("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
