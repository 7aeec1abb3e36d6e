#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: 2026 cute-cpp authors
"""Where a small batch's decode time goes (issue 18: B1 KV4k at 0.36-0.39x of a device copy):
times the decode at every split count beside a device copy of as many bytes, and lists the
kernels' own durations (torch.profiler) at the default split.

  bench/attention/probe_decode_small_batch.py --build BUILD"""
import argparse
import sys
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench/support"))
from bench_sdpa_decode import Decode  # noqa: E402
from torch_timing import time_pair  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", required=True)
    opts = ap.parse_args()
    decode = Decode(Path(opts.build) / "kernels/libcute_cpp_decode.so")
    dt, H, Hkv, D = torch.bfloat16, 32, 8, 128
    for B, S, page in [(1, 1024, 16), (1, 4096, 16), (1, 4096, 64), (1, 32768, 64), (8, 4096, 64)]:
        pages = B * S // page
        k_cache = torch.empty(pages, page, Hkv, D, device="cuda", dtype=dt).uniform_(-1, 1)
        v_cache = torch.empty_like(k_cache).uniform_(-1, 1)
        table = torch.randperm(pages, device="cuda", dtype=torch.int32).view(B, S // page).contiguous()
        q = torch.empty(B, 1, H, D, device="cuda", dtype=dt).uniform_(-1, 1)
        o = torch.empty_like(q)
        seqlens = torch.full((B,), S, dtype=torch.int32, device="cuda")
        src = torch.empty(2 * k_cache.numel(), device="cuda", dtype=dt)
        dst = torch.empty_like(src)
        print(f"B{B} KV{S} page{page}: {2 * k_cache.numel() * 2 / 1e6:.1f} MB", flush=True)
        for splits in (0, 1, 2, 4, 8, 16, 32, 64, 128):
            if splits > 1 and splits > S // 64:
                continue
            run = lambda: decode(q, k_cache, v_cache, o, seqlens, S, table, page, splits=splits)
            try:
                run()
            except ValueError as e:
                print(f"  splits {splits:3d}: {e}")
                continue
            t_ours, t_copy = time_pair(run, lambda: dst.copy_(src), rounds=30, warmup=5)
            print(f"  splits {splits:3d}: {t_ours * 1e3:6.1f} us   copy {t_copy * 1e3:5.1f} us   "
                  f"ratio {t_copy / t_ours:.3f}", flush=True)
        flush = torch.empty(torch.cuda.get_device_properties(0).L2_cache_size // 2, device="cuda")
        with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
            for _ in range(20):
                flush.zero_()
                decode(q, k_cache, v_cache, o, seqlens, S, table, page)
                dst.copy_(src)
            torch.cuda.synchronize()
        for e in prof.key_averages():
            if e.device_type == torch.autograd.DeviceType.CUDA or getattr(e, "device_time", 0):
                print(f"    {e.key[:70]:70s} {e.count:4d} calls  {e.device_time:7.1f} us each", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
