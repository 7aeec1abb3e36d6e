#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: 2026 cute-cpp authors
"""Times cute-cpp's decode attention (libcute_cpp_decode.so, through its C entry point) on a paged
cache against PyTorch's scaled_dot_product_attention on a contiguous cache of the same data, in
one process, and checks ours against an fp32 reference (output poisoned first).

  bench/attention/bench_sdpa_decode.py --build BUILD [--json FILE] [--quick] [--only TEXT]

BUILD holds the C library (BUILD/kernels/libcute_cpp_decode.so). Its records keep the name the
example program gave them (kernel decode_attention_sm90), so scripts/gpu-check compares them across
commits.

Method (as bench/support/bench.hpp): per round, L2 flushed, a spin queued ahead so that launch
overhead is not timed, ours and PyTorch's alternately; the median of 50 rounds after 10 warm-up.
Bytes: the K/V cache read plus Q and O (what a decode step must move)."""
import argparse
import ctypes
import json
import math
import os
import sys
from pathlib import Path

import torch
import torch.nn.functional as F

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench/support"))
from torch_timing import time_pair  # noqa: E402


class Decode:
    def __init__(self, path):
        self.lib = ctypes.CDLL(str(path))
        f = self.lib.cute_cpp_decode_attention
        f.restype = ctypes.c_int
        P, I, Fl, U = ctypes.c_void_p, ctypes.c_int, ctypes.c_float, ctypes.c_ulonglong
        f.argtypes = [I, P, P, P, P, P, P, I, I, I, I, I, I, Fl, I, P, I, P, I, I, I, I, P, U, P,
                      ctypes.POINTER(U), ctypes.c_char_p, ctypes.c_ulong]
        self.message = ctypes.create_string_buffer(1024)
        self.workspace = None

    def __call__(self, q, k, v, o, seqlens, max_seq_k, table=None, page_size=0, lse=None, splits=0):
        """q, o: [B, T, H, D]; k, v: [pages, page_size, Hkv, D] with table, else [B, S, Hkv, D]."""
        B, T, H, D = q.shape
        args = [0 if q.dtype == torch.bfloat16 else 1, q.data_ptr(), k.data_ptr(), v.data_ptr(), o.data_ptr(),
                lse.data_ptr() if lse is not None else None, None, B, T, H, k.shape[2], D, v.shape[-1], 0.0, 1,
                seqlens.data_ptr(), max_seq_k, table.data_ptr() if table is not None else None, page_size,
                table.shape[1] if table is not None else 0, k.shape[0] if table is not None else 0, splits]
        need = ctypes.c_ulonglong(0)
        self._call(args + [None, 0, None, ctypes.byref(need)])
        if need.value and (self.workspace is None or self.workspace.numel() < need.value):
            self.workspace = torch.empty(need.value, dtype=torch.uint8, device="cuda")
        ws = self.workspace
        self._call(args + [ws.data_ptr() if ws is not None else None, ws.numel() if ws is not None else 0,
                           torch.cuda.current_stream().cuda_stream, None])

    def _call(self, args):
        if self.lib.cute_cpp_decode_attention(*args, self.message, 1024) != 0:
            raise ValueError(self.message.value.decode())


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", required=True)
    ap.add_argument("--json")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--only", help="run the configurations whose name contains this")
    opts = ap.parse_args()
    decode = Decode(Path(opts.build) / "kernels/libcute_cpp_decode.so")
    torch.manual_seed(int.from_bytes(os.urandom(4), "little"))
    dt, H, Hkv, D = torch.bfloat16, 32, 8, 128
    configs = [(1, 4096, 16), (8, 4096, 16), (32, 4096, 16), (32, 4096, 64), (128, 4096, 16), (8, 32768, 16),
               (32, 32768, 64)]
    if opts.quick:
        configs = configs[2:3]
    records, ok = [], True
    for B, S, page in configs:
        name = f"B{B} H{H}/{Hkv} KV{S} D{D} page{page}"
        if opts.only and opts.only not in name:
            continue
        # SDPA's contiguous cache [B, Hkv, S, D]; ours, the same keys in shuffled pages.
        k = torch.empty(B, Hkv, S, D, device="cuda", dtype=dt).uniform_(-1, 1)
        v = torch.empty(B, Hkv, S, D, device="cuda", dtype=dt).uniform_(-1, 1)
        q = torch.empty(B, 1, H, D, device="cuda", dtype=dt).uniform_(-1, 1)
        pages_per_seq = S // page
        perm = torch.randperm(B * pages_per_seq, device="cuda", dtype=torch.int32)
        table = perm.view(B, pages_per_seq).contiguous()
        k_cache = torch.empty(B * pages_per_seq, page, Hkv, D, device="cuda", dtype=dt)
        v_cache = torch.empty_like(k_cache)
        k_cache[perm.long()] = k.permute(0, 2, 1, 3).reshape(B * pages_per_seq, page, Hkv, D)
        v_cache[perm.long()] = v.permute(0, 2, 1, 3).reshape(B * pages_per_seq, page, Hkv, D)
        seqlens = torch.full((B,), S, dtype=torch.int32, device="cuda")
        o = torch.full((B, 1, H, D), float("nan"), device="cuda", dtype=dt)
        decode(q, k_cache, v_cache, o, seqlens, S, table, page)
        qt = q.transpose(1, 2)  # [B, H, 1, D]
        ref = F.scaled_dot_product_attention(qt.float(), k.float(), v.float(), enable_gqa=True).transpose(1, 2)
        err = (o.float() - ref).abs().max().item()
        good = math.isfinite(err) and err <= 2e-2
        ok &= good
        del ref
        t_ours, t_ref = time_pair(lambda: decode(q, k_cache, v_cache, o, seqlens, S, table, page),
                                  lambda: F.scaled_dot_product_attention(qt, k, v, enable_gqa=True))
        moved = 2 * B * S * Hkv * D * 2 + 2 * B * H * D * 2
        ours, ref = moved / t_ours / 1e6, moved / t_ref / 1e6
        print(f"{name:34s} {'ok ' if good else 'BAD'} max|O-ref| {err:.2e}  ours {ours:7.1f}  SDPA {ref:7.1f} GB/s"
              f"  ratio {ours / ref:.3f}  ({t_ours * 1e3:.1f} us)", flush=True)
        records.append(dict(kernel="decode_attention_sm90", shape=name, dtype="bf16", ours=ours,
                            reference="PyTorch SDPA, contiguous cache", reference_value=ref, unit="GB/s",
                            ratio=ours / ref, microseconds=t_ours * 1e3))
        k = v = k_cache = v_cache = None  # freed before the next case (the lambdas above are done)
    if opts.json:
        Path(opts.json).write_text(json.dumps(records, indent=1) + "\n")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
