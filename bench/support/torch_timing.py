# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: 2026 cute-cpp authors
"""Timing of a cute-cpp kernel beside a PyTorch reference in one process, for the bench_*.py
scripts of bench/<family>/, by the method of bench/support/bench.hpp: per round, L2 flushed and a spin
queued ahead (so that launch overhead is not timed), ours and theirs alternately; the median of
`rounds` rounds after `warmup`."""
import torch


def time_pair(ours, theirs, rounds=50, warmup=10):
    """Median milliseconds of ours() and theirs()."""
    flush = torch.empty(2 * torch.cuda.get_device_properties(0).L2_cache_size // 4, device="cuda")
    times = {0: [], 1: []}
    for r in range(warmup + rounds):
        for side, fn in ((0, ours), (1, theirs)):
            flush.zero_()
            torch.cuda._sleep(200_000)
            start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            start.record()
            fn()
            stop.record()
            stop.synchronize()
            if r >= warmup:
                times[side].append(start.elapsed_time(stop))
    med = lambda xs: sorted(xs)[len(xs) // 2]
    return med(times[0]), med(times[1])
