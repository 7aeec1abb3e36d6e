#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""python_ops: the library's kernels from Python, on torch tensors, inside a small transformer
block (RMSNorm, the QKV projection, causal GQA attention, the output projection), each step checked
against torch in float64 (attention against torch's own SDPA in float32). The kernels run on the
caller's current stream and write into preallocated outputs where `out=` is given.

    python3 main.py           (needs an sm_90a GPU and the package built with its kernels: pip install .)
"""
import sys

import torch
import torch.nn.functional as F


def close(got, want, rtol, atol):
    """Whether every element of `got` is within atol + rtol |want| of `want`."""
    return bool(((got.double() - want.double()).abs() <= atol + rtol * want.double().abs()).all())


def main():
    if not torch.cuda.is_available():
        print("python_ops: no CUDA device; nothing to run")
        return 0
    import cute_cpp.ops as ops  # the C++ kernels through their C entry points, on DLPack arrays

    print(f"python_ops: seed {torch.seed()}")  # a fresh seed, printed for replay (torch.manual_seed)
    tokens, hidden, heads, kv_heads, d = 300, 1024, 16, 8, 128
    bf = dict(device="cuda", dtype=torch.bfloat16)
    x = torch.randn(tokens, hidden, **bf)
    norm_w = 1 + 0.1 * torch.randn(hidden, **bf)
    w_qkv = torch.randn((heads + 2 * kv_heads) * d, hidden, **bf) / hidden ** 0.5
    w_o = torch.randn(hidden, heads * d, **bf) / (heads * d) ** 0.5
    ok = True

    h = ops.rmsnorm(x, norm_w)
    want = x.double() * torch.rsqrt(x.double().pow(2).mean(-1, keepdim=True) + 1e-6) * norm_w.double()
    ok &= report("rmsnorm", close(h, want, 1e-2, 1e-2))

    qkv = torch.full((tokens, w_qkv.shape[0]), float("nan"), **bf)  # poisoned: every element must be written
    ops.linear(h, w_qkv, out=qkv)
    ok &= report("linear (QKV)", close(qkv, h.double() @ w_qkv.double().T, 1e-2, 2e-2))

    q, k, v = qkv.split([heads * d, kv_heads * d, kv_heads * d], dim=-1)
    q, k, v = (t.reshape(1, tokens, -1, d) for t in (q, k, v))  # FlashAttention's (batch, seq, heads, d)
    a = ops.attention(q, k, v, causal=True)
    ref = F.scaled_dot_product_attention(q.transpose(1, 2).float(), k.transpose(1, 2).float(),
                                         v.transpose(1, 2).float(), is_causal=True, enable_gqa=True).transpose(1, 2)
    ok &= report("attention (causal, 16 / 8 heads)", close(a, ref, 2e-2, 2e-2))

    y = ops.linear(a.reshape(tokens, heads * d), w_o)
    ok &= report("linear (output)", close(y, a.reshape(tokens, -1).double() @ w_o.double().T, 1e-2, 2e-2))
    return 0 if ok else 1


def report(step, ok):
    print(f"python_ops: {step}: {'pass' if ok else 'FAIL'}")
    return ok


if __name__ == "__main__":
    sys.exit(main())
