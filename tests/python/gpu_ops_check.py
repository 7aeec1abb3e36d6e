#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""cute_cpp.ops on the GPU (scripts/gpu-check): every op against the torch op a user would call
instead, on fresh random data with the output poisoned first, sizes that are not multiples of any
tile; out= writes in place; CuPy arrays in and out; a second stream; rejected inputs leave the
output untouched; torch.library's opcheck and torch.compile; attention's backward against torch SDPA's
(and a torch.compile training step of an attention block); then each op timed beside its torch
counterpart in the same run (bench/support/torch_timing.py: alternating, L2 flushed, median of
50) and, at a tiny size, the host time per call from Python beside torch's.

    gpu_ops_check.py --build DIR [--json FILE] [--package DIR] [--no-bench]
"""
import argparse
import json
import importlib
import math
import os
import sys
from pathlib import Path

os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")  # JAX: allocate as needed, beside torch

import torch
import torch.nn.functional as F

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench/support"))
from torch_timing import time_pair  # noqa: E402  (the examples' method: L2 flushed, alternating)

failures = []


def check(name, ok, detail=""):
    print(f"check {name}: {'pass' if ok else 'FAIL'} {detail}", flush=True)
    if not ok:
        failures.append(name)


def close(got, ref, rtol, atol):
    err = (got.float() - ref.float()).abs()
    bad = ~(err <= atol + rtol * ref.float().abs())
    return int(bad.sum()), float(err.max())


def poisoned(*shape, dtype):
    return torch.full(shape, float("nan"), device="cuda", dtype=dtype)


def host_us(fn, runs=2000):
    """Microseconds of host time per call at steady state (the GPU kept busy enough not to stall)."""
    import time
    for _ in range(50):
        fn()
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    for _ in range(runs):
        fn()
    t1 = time.perf_counter()
    torch.cuda.synchronize()
    return (t1 - t0) / runs * 1e6


def checks(ops):
    g = torch.Generator(device="cuda").manual_seed(7)
    bf = torch.bfloat16
    # linear: odd M, N; K a multiple of 8.
    for m, n, k in ((1, 4096, 4096), (37, 1000, 200), (300, 12288, 4096)):
        x = torch.randn(m, k, device="cuda", dtype=bf, generator=g)
        w = torch.randn(n, k, device="cuda", dtype=bf, generator=g)
        out = poisoned(m, n, dtype=bf)
        ops.linear(x, w, out=out)
        ref = x.double() @ w.double().T
        bad, worst = close(out, ref, 1e-2, 1e-2 * k ** 0.5)
        check(f"linear {m}x{n}x{k} out=", bad == 0, f"({bad} bad, max err {worst:.3g})")
        y = ops.linear(x, w)
        check(f"linear {m}x{n}x{k} returns a torch tensor", isinstance(y, torch.Tensor) and y.shape == (m, n)
              and torch.equal(y, out))
    # gemm with the fused epilogue: b = w.T (K-major), float32 bias, each activation, alpha and beta.
    acts = {None: lambda t: t, "relu": F.relu, "gelu": lambda t: F.gelu(t, approximate="tanh"), "silu": F.silu}
    m, n, k = 300, 1000, 264
    x = torch.randn(m, k, device="cuda", dtype=bf, generator=g)
    w = torch.randn(n, k, device="cuda", dtype=bf, generator=g)
    bias = torch.randn(n, device="cuda", dtype=torch.float32, generator=g)
    c0 = torch.randn(m, n, device="cuda", dtype=bf, generator=g)
    for act, fn in acts.items():
        for alpha, beta, with_bias in ((1.0, 0.0, True), (0.75, -0.5, True), (1.0, 0.0, False)):
            out = c0.clone() if beta != 0.0 else poisoned(m, n, dtype=bf)
            ops.gemm(x, w.T, bias=bias if with_bias else None, activation=act, alpha=alpha, beta=beta, out=out)
            pre = alpha * (x.double() @ w.double().T) + beta * c0.double() + (bias.double() if with_bias else 0.0)
            bad, worst = close(out, fn(pre), 1e-2, 1e-2 * k ** 0.5)
            check(f"gemm {m}x{n}x{k} act={act} alpha={alpha} beta={beta} bias={with_bias}", bad == 0,
                  f"({bad} bad, max err {worst:.3g})")
    try:
        ops.gemm(x, w.T.contiguous(), out=poisoned(m, n, dtype=bf))
        check("gemm rejects an N-major b", False, "(no error)")
    except ValueError as e:
        check("gemm rejects an N-major b", "ops.layout" in str(e), f"({e})")
    # rmsnorm, with and without the residual.
    for rows, width, dtype in ((1, 4096, bf), (77, 5120, bf), (33, 1000, torch.float16), (5, 4096, torch.float32)):
        x = torch.randn(rows, width, device="cuda", dtype=dtype, generator=g)
        r = torch.randn(rows, width, device="cuda", dtype=dtype, generator=g)
        w = torch.randn(width, device="cuda", dtype=dtype, generator=g)
        y, s = poisoned(rows, width, dtype=dtype), poisoned(rows, width, dtype=dtype)
        ops.rmsnorm(x, w, 1e-6, residual=r, out=y, residual_out=s)
        s_ref = (x.double() + r.double()).to(dtype)
        ref = F.rms_norm(s_ref.double(), (width,), w.double(), 1e-6)
        tol = 1e-5 if dtype == torch.float32 else 1e-2
        check(f"rmsnorm residual {rows}x{width} {dtype}", torch.equal(s, s_ref) and close(y, ref, tol, tol)[0] == 0)
        y2 = ops.rmsnorm(x, w, 1e-6)
        check(f"rmsnorm {rows}x{width} {dtype}",
              close(y2, F.rms_norm(x.double(), (width,), w.double(), 1e-6), tol, tol)[0] == 0)
    # attention: GQA, causal, lengths that are not tiles, a fused QKV buffer read in place.
    for b, sq, sk, h, hkv, d, causal in ((2, 300, 300, 8, 2, 128, True), (1, 77, 500, 4, 4, 64, False)):
        q = torch.randn(b, sq, h, d, device="cuda", dtype=bf, generator=g)
        k = torch.randn(b, sk, hkv, d, device="cuda", dtype=bf, generator=g)
        v = torch.randn(b, sk, hkv, d, device="cuda", dtype=bf, generator=g)
        o = poisoned(b, sq, h, d, dtype=bf)
        ops.attention(q, k, v, causal=causal, out=o)
        rep = h // hkv
        ref = F.scaled_dot_product_attention(q.double().transpose(1, 2), k.double().repeat_interleave(rep, 2).transpose(1, 2),
                                             v.double().repeat_interleave(rep, 2).transpose(1, 2),
                                             is_causal=causal and sq == sk).transpose(1, 2)
        if causal and sq != sk:
            ref = None
        if ref is not None:
            bad, worst = close(o, ref, 2e-2, 2e-2)
            check(f"attention b{b} s{sq}/{sk} h{h}/{hkv} d{d} causal={causal}", bad == 0, f"(max err {worst:.3g})")
    # scaled_mm: FP8 per tensor, rowwise and by blocks (row-major and K-block-major A scales), ragged
    # M and N (N a multiple of 8: C's rows are 16-byte aligned for TMA), against the float64 product of the
    # dequantized operands.
    for m, n, k, a_dtype in ((77, 296, 272, torch.float8_e4m3fn), (300, 1000, 1040, torch.float8_e4m3fn),
                             (130, 200, 144, torch.float8_e5m2)):
        a = (torch.rand(m, k, device="cuda", generator=g) * 12 - 6).to(a_dtype)
        w = (torch.rand(n, k, device="cuda", generator=g) * 12 - 6).to(torch.float8_e4m3fn)
        kb = (k + 127) // 128
        forms = {"per tensor": (torch.rand(1, device="cuda", generator=g) + 0.5,
                                torch.rand(1, device="cuda", generator=g) + 0.5),
                 "rowwise": (torch.rand(m, 1, device="cuda", generator=g) + 0.5,
                             torch.rand(1, n, device="cuda", generator=g) + 0.5)}
        if a_dtype == torch.float8_e4m3fn:
            forms["blocks"] = (torch.rand(m, kb, device="cuda", generator=g) + 0.5,
                               torch.rand((n + 127) // 128, kb, device="cuda", generator=g) + 0.5)
            forms["blocks, A's K-block-major"] = (torch.rand(kb, m, device="cuda", generator=g).T + 0.5,
                                                  forms["blocks"][1])
        for form, (sa, sb) in forms.items():
            if sa.dim() == 2 and sa.shape[1] == kb and form.startswith("blocks"):
                da = a.double() * sa.double().repeat_interleave(128, 1)[:, :k]
                db = w.double() * sb.double().repeat_interleave(128, 0)[:n].repeat_interleave(128, 1)[:, :k]
            else:
                da, db = a.double() * sa.double().reshape(-1, 1), w.double() * sb.double().reshape(-1, 1)
            ref = da @ db.T
            bound = (da.abs() @ db.abs().T).max().item() / 1024
            # Fast accumulation (the default per tensor and rowwise) and two-level (use_fast_accum=False).
            for fast in ((None, False) if not form.startswith("blocks") else (None,)):
                out = poisoned(m, n, dtype=bf)
                ops.scaled_mm(a, w.T, sa, sb, use_fast_accum=fast, out=out)
                bad, worst = close(out, ref, 1 / 128, bound)
                mode = ", two-level" if fast is False else ""
                check(f"scaled_mm {m}x{n}x{k} {str(a_dtype)[6:]} {form}{mode}", bad == 0,
                      f"({bad} bad, max err {worst:.3g})")
    a8 = torch.ones(64, 128, device="cuda").to(torch.float8_e4m3fn)
    w8 = torch.ones(64, 128, device="cuda").to(torch.float8_e4m3fn)
    for what, scales, fast, rule in (
            ("scales of no form", (torch.ones(3, device="cuda"), torch.ones(1, device="cuda")), None, "ops.shape"),
            ("fast accumulation with block scales", (torch.ones(64, 1, device="cuda"), torch.ones(1, 1, device="cuda")),
             True, "ops.accumulation")):
        try:
            ops.scaled_mm(a8, w8.T, *scales, use_fast_accum=fast)
            check(f"scaled_mm rejects {what}", False, "(no error)")
        except ValueError as e:
            check(f"scaled_mm rejects {what}", rule in str(e), f"({e})")
    # grouped_mm: ragged groups (empty, 1, 7, 128, 1000 rows), rows past the last group left alone, the
    # SwiGLU gate-up form, wrong offsets found on the GPU (validate), against float64 per group.
    sizes = (0, 1, 7, 128, 1000, 0, 300)
    kg, ng = 136, 208  # N and N/2 multiples of 8: C's rows 16-byte aligned (TMA)
    offs = torch.tensor(sizes, device="cuda", dtype=torch.int32).cumsum(0, dtype=torch.int32)
    rows = int(offs[-1]) + 21
    ag = torch.randn(rows, kg, device="cuda", dtype=bf, generator=g)
    wg = torch.randn(len(sizes), ng, kg, device="cuda", dtype=bf, generator=g) / kg ** 0.5
    for swiglu in (False, True):
        cols = ng // 2 if swiglu else ng
        out = poisoned(rows, cols, dtype=bf)
        ops.grouped_mm(ag, wg.transpose(-2, -1), offs, swiglu=swiglu, validate=True, out=out)
        ref = torch.empty(rows, cols, dtype=torch.float64, device="cuda")
        begin = 0
        for i, end in enumerate(offs.tolist()):
            if end == begin:  # an empty group
                continue
            y = ag[begin:end].double() @ wg[i].double().T
            if swiglu:  # blocks of 8 gate columns, then their 8 up columns
                y = y.reshape(end - begin, -1, 2, 8)
                y = (F.silu(y[:, :, 0]) * y[:, :, 1]).reshape(end - begin, -1)
            ref[begin:end] = y
            begin = end
        bad, worst = close(out[:begin], ref[:begin], 1 / 128, 1e-2)
        untouched = bool(out[begin:].isnan().all())
        check(f"grouped_mm {len(sizes)} groups of {sizes} rows N{ng} K{kg} swiglu={swiglu}", bad == 0 and untouched,
              f"(max err {worst:.3g}; rows past the groups {'untouched' if untouched else 'WRITTEN'})")
    try:
        ops.grouped_mm(ag, wg.transpose(-2, -1), offs.flip(0).contiguous(), validate=True)
        check("grouped_mm rejects decreasing offsets (validate)", False, "(no error)")
    except ValueError as e:
        check("grouped_mm rejects decreasing offsets (validate)", "grouped.offsets" in str(e), f"({e})")
    try:
        ops.grouped_mm(ag, wg, offs)
        check("grouped_mm rejects an N-major b", False, "(no error)")
    except ValueError as e:
        check("grouped_mm rejects an N-major b", "ops.layout" in str(e) or "ops.shape" in str(e), f"({e})")
    # softmax, swiglu, the row reductions and add: every dtype, widths that are not a vector's multiple,
    # leading dimensions flattened into rows.
    for shape, dtype in (((37, 1000), bf), ((3, 5, 4097), torch.float16), ((129, 64), torch.float32)):
        x = torch.randn(*shape, device="cuda", dtype=dtype, generator=g)
        tol = 1e-5 if dtype == torch.float32 else 1e-2
        y = poisoned(*shape, dtype=dtype)
        ops.softmax(x, out=y)
        check(f"softmax {shape} {dtype}", close(y, torch.softmax(x.double(), -1), tol, 1e-6)[0] == 0)
        if shape[-1] % 2 == 0:
            h = shape[-1] // 2
            o = poisoned(*shape[:-1], h, dtype=dtype)
            ops.swiglu(x, out=o)
            ref = F.silu(x[..., :h].double()) * x[..., h:].double()
            check(f"swiglu {shape} {dtype}", close(o, ref, tol, tol)[0] == 0)
        for op, ref in (("sum", x.double().sum(-1)), ("max", x.double().amax(-1))):
            r = ops.reduce(x, op)
            check(f"reduce {op} {shape} {dtype}", r.dtype == torch.float32 and r.shape == shape[:-1]
                  and close(r, ref, 1e-4, 1e-3 * shape[-1] ** 0.5)[0] == 0)
        b2 = torch.randn(*shape, device="cuda", dtype=dtype, generator=g)
        a2 = poisoned(*shape, dtype=dtype)
        ops.add(x, b2, out=a2)
        check(f"add {shape} {dtype}", torch.equal(a2, (x.float() + b2.float()).to(dtype)))
    # A second stream: the op runs on the current one.
    s2 = torch.cuda.Stream()
    x = torch.randn(64, 4096, device="cuda", dtype=bf, generator=g)
    w = torch.randn(4096, 4096, device="cuda", dtype=bf, generator=g)
    with torch.cuda.stream(s2):
        y = ops.linear(x, w)
    s2.synchronize()
    check("linear on a second stream", close(y, x.double() @ w.double().T, 1e-2, 0.7)[0] == 0)
    # Captured in a CUDA graph on a shape that wants a larger split-K workspace than the stream has
    # (workspace.hpp does not grow it while capturing: the GEMM takes a decomposition that fits).
    xg = torch.randn(8, 16384, device="cuda", dtype=bf, generator=g)
    wg = torch.randn(3000, 16384, device="cuda", dtype=bf, generator=g)
    yg = poisoned(8, 3000, dtype=bf)
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.stream(side), torch.cuda.graph(graph, stream=side):
        ops.linear(xg, wg, out=yg)
    graph.replay()
    torch.cuda.synchronize()
    check("linear captured in a CUDA graph", close(yg, xg.double() @ wg.double().T, 1e-2, 1.3)[0] == 0)
    # One stream's workspace serves every shape (issue 51): a decoder layer's projections at the
    # widths of Qwen3-0.6B and -4B (q heads x head_dim != hidden), where the output and down
    # projections split K or share tiles out by stream-K with different tile counts, queued
    # twice without a synchronisation between; every output is checked at the end.
    seq = []
    for hidden, attn, ffn in ((1024, 2048, 3072), (2560, 4096, 9728)):
        for t in (37, 300):
            for n, k in ((attn + 1024, hidden), (hidden, attn), (2 * ffn, hidden), (hidden, ffn)):
                seq.append((torch.randn(t, k, device="cuda", dtype=bf, generator=g),
                            torch.randn(n, k, device="cuda", dtype=bf, generator=g)))
    outs = [[poisoned(x.shape[0], w.shape[0], dtype=bf) for x, w in seq] for _ in range(2)]
    # (its own names: the checks below read the x and w of the second-stream check)
    for rnd in range(2):
        for (xs, ws), y in zip(seq, outs[rnd]):
            ops.linear(xs, ws, out=y)
    torch.cuda.synchronize()
    bad = [f"{tuple(xs.shape)}x{tuple(ws.shape)}" for rnd in range(2) for (xs, ws), y in zip(seq, outs[rnd])
           if close(y, xs.double() @ ws.double().T, 1e-2, 0.02 * xs.shape[1] ** 0.5)[0] != 0]
    check("linear: one workspace across a sequence of split-K / stream-K shapes", not bad, " ".join(bad[:4]))
    # Views read directly (array.hpp): a row offset into a larger tensor, and an output view.
    big = torch.randn(80, 4096, device="cuda", dtype=bf, generator=g)
    wide = poisoned(70, 2 * 4096, dtype=bf)
    ops.linear(big[10:], w, out=wide[:, 4096:])
    check("linear on views with offsets", close(wide[:, 4096:], big[10:].double() @ w.double().T, 1e-2, 0.7)[0] == 0
          and bool(torch.isnan(wide[:, :4096]).all()))
    # A weight that requires grad (an nn.Linear's, in inference) is read like any tensor.
    check("linear with an nn.Parameter weight", torch.equal(ops.linear(x, torch.nn.Parameter(w)), ops.linear(x, w)))
    # Rejections leave the output untouched.
    out = torch.full((64, 4096), 3.0, device="cuda", dtype=bf)
    for name, call, rule in (
            ("non-contiguous x", lambda: ops.linear(torch.randn(64, 8192, device="cuda", dtype=bf)[:, ::2], w,
                                                    out=out), "ops.layout"),
            ("wrong dtype w", lambda: ops.linear(x, w.float(), out=out), "ops.dtype"),
            ("float64 x (through DLPack)", lambda: ops.linear(x.double(), w, out=out), "ops.dtype"),
            ("misaligned x", lambda: ops.linear(x.view(-1)[1:4097 * 63 + 1].view(63, 4097)[:, :4096], w, out=out[:63]),
             "")):
        try:
            call()
            check(f"rejects {name}", False, "(no error)")
        except ValueError as e:
            check(f"rejects {name}", rule in str(e) and bool((out == 3.0).all()), f"({e})")
    # torch.library: the registered ops pass opcheck and torch.compile(fullgraph=True) traces them.
    importlib.import_module("cute_cpp.torch")  # registers torch.ops.cute_cpp
    xs, ws = x[:37], w[:1000]
    for name, op, args in (("linear", torch.ops.cute_cpp.linear.default, (xs, ws)),
                           ("rmsnorm", torch.ops.cute_cpp.rmsnorm.default, (xs, ws[0], 1e-6)),
                           ("fused_add_rmsnorm", torch.ops.cute_cpp.fused_add_rmsnorm.default,
                            (xs, torch.randn_like(xs), ws[0], 1e-6)),
                           ("gemm", torch.ops.cute_cpp.gemm.default, (xs, ws.T, None, "silu", 1.0, 0.0, None)),
                           ("softmax", torch.ops.cute_cpp.softmax.default, (xs,)),
                           ("swiglu", torch.ops.cute_cpp.swiglu.default, (xs,)),
                           ("reduce_sum", torch.ops.cute_cpp.reduce_sum.default, (xs,)),
                           ("reduce_max", torch.ops.cute_cpp.reduce_max.default, (xs,)),
                           ("add", torch.ops.cute_cpp.add.default, (xs, torch.randn_like(xs))),
                           ("grouped_mm", torch.ops.cute_cpp.grouped_mm.default,
                            (xs, torch.randn(3, xs.shape[1], 64, device="cuda", dtype=bf).transpose(-2, -1)
                             .contiguous().transpose(-2, -1),
                             torch.tensor([10, 10, 37], device="cuda", dtype=torch.int32))),
                           ("scaled_mm", torch.ops.cute_cpp.scaled_mm.default,
                            (xs.to(torch.float8_e4m3fn), ws.to(torch.float8_e4m3fn).T,
                             torch.ones(1, device="cuda"), torch.ones(1, device="cuda")))):
        # NOTE: opcheck's schema test compares the inputs before and after with arithmetic torch has
        # no FP8 kernels for ("mul_cuda" not implemented for Float8_e4m3fn): scaled_mm runs the others.
        utils = ("test_autograd_registration", "test_faketensor", "test_aot_dispatch_dynamic")
        if name != "scaled_mm":
            utils = ("test_schema",) + utils
        try:
            torch.library.opcheck(op, args, test_utils=utils)
            check(f"torch.library.opcheck cute_cpp::{name}", True)
        except Exception as e:  # opcheck raises OpCheckError (an AssertionError subclass) or others
            check(f"torch.library.opcheck cute_cpp::{name}", False, f"({type(e).__name__}: {e})")
    try:
        compiled = torch.compile(lambda a, b: torch.ops.cute_cpp.linear(a, b).relu(), fullgraph=True)
        check("torch.compile(fullgraph=True) through cute_cpp::linear",
              torch.equal(compiled(xs, ws), ops.linear(xs, ws).relu()))
    except Exception as e:
        check("torch.compile(fullgraph=True) through cute_cpp::linear", False, f"({type(e).__name__}: {e})")
    # CuPy has no bfloat16: its arrays go through rmsnorm in float16, on CuPy's current stream.
    try:
        import cupy
        xh = torch.randn(33, 1000, device="cuda", dtype=torch.float16, generator=g)
        wh = torch.randn(1000, device="cuda", dtype=torch.float16, generator=g)
        yc = ops.rmsnorm(cupy.asarray(xh), cupy.asarray(wh))
        cupy.cuda.get_current_stream().synchronize()
        check("rmsnorm on CuPy float16 arrays returns CuPy", isinstance(yc, cupy.ndarray)
              and torch.equal(torch.as_tensor(yc, device="cuda"), ops.rmsnorm(xh, wh)))
    except ImportError:
        check("rmsnorm on CuPy arrays", False, "(cupy missing)")
    # JAX arrays in bfloat16 (JAX was told not to take most of the GPU's memory at import).
    try:
        import jax
        import jax.numpy as jnp
        xj = jnp.asarray(x[:37].float().cpu().numpy(), dtype=jnp.bfloat16)
        wj = jnp.asarray(w[:1000].float().cpu().numpy(), dtype=jnp.bfloat16)
        yj = ops.linear(xj, wj)
        yj.block_until_ready()
        check("linear on JAX arrays returns JAX", isinstance(yj, jax.Array)
              and torch.equal(torch.from_dlpack(yj), ops.linear(x[:37], w[:1000])))
    except ImportError:
        check("linear on JAX arrays", False, "(jax missing)")


def sdpa_reference(q, k, v, causal, dtype=torch.float64):
    """Attention of (B, S, H, D) tensors through torch's SDPA in `dtype` (GQA: K/V repeated to every
    q head, so autograd sums their gradients back), causal bottom-right aligned (an explicit mask)."""
    rep = q.shape[2] // k.shape[2]
    sq, sk = q.shape[1], k.shape[1]
    mask = None
    if causal:
        i = torch.arange(sq, device=q.device)[:, None]
        mask = torch.arange(sk, device=q.device)[None, :] <= i + sk - sq
    return F.scaled_dot_product_attention(q.to(dtype).transpose(1, 2),
                                          k.to(dtype).repeat_interleave(rep, 2).transpose(1, 2),
                                          v.to(dtype).repeat_interleave(rep, 2).transpose(1, 2),
                                          attn_mask=mask).transpose(1, 2)


def grads_of(fn, inputs, d_out):
    """The gradients of sum(fn(*inputs) * d_out) with respect to inputs (fresh leaves)."""
    leaves = [t.detach().clone().requires_grad_(True) for t in inputs]
    fn(*leaves).backward(d_out.to(leaves[0].dtype))
    return [t.grad for t in leaves]


def attention_backward_checks(ops):
    """ops.attention_backward against torch SDPA's backward in float64 (the reference), with SDPA's
    own bf16 backward beside it: ours within max(2x SDPA's error, 1e-2 of the largest gradient),
    per tensor; GQA, causal with seq_q < seq_k, lengths that are no tile; deterministic mode bitwise
    equal twice; torch.library's opcheck of the autograd ops; and a causal attention block trained a
    step under torch.compile(fullgraph=True) against the same block on SDPA."""
    importlib.import_module("cute_cpp.torch")  # registers torch.ops.cute_cpp
    g = torch.Generator(device="cuda").manual_seed(11)
    bf = torch.bfloat16
    for b, sq, sk, h, hkv, d, causal in ((2, 300, 300, 4, 4, 128, True), (2, 77, 77, 4, 4, 64, False),
                                         (1, 190, 257, 8, 2, 64, True), (2, 257, 257, 8, 2, 128, False),
                                         (1, 1000, 1000, 4, 1, 128, True)):
        q = torch.randn(b, sq, h, d, device="cuda", dtype=bf, generator=g)
        k = torch.randn(b, sk, hkv, d, device="cuda", dtype=bf, generator=g)
        v = torch.randn(b, sk, hkv, d, device="cuda", dtype=bf, generator=g)
        d_out = torch.randn(b, sq, h, d, device="cuda", dtype=bf, generator=g)
        o, lse = ops.attention(q, k, v, causal=causal, return_lse=True)
        ours = ops.attention_backward(d_out, q, k, v, o, lse, causal=causal)
        ref = grads_of(lambda *t: sdpa_reference(*t, causal), (q, k, v), d_out)
        sdpa = grads_of(lambda *t: sdpa_reference(*t, causal, dtype=bf), (q, k, v), d_out)
        name = f"attention backward b{b} s{sq}/{sk} h{h}/{hkv} d{d} causal={causal}"
        for what, got, want, theirs in zip(("dq", "dk", "dv"), ours, ref, sdpa):
            err = (got.double() - want).abs().max().item()
            err_sdpa = (theirs.double() - want).abs().max().item()
            bound = max(2 * err_sdpa, 1e-2 * want.abs().max().item())
            check(f"{name} {what}", got.shape == want.shape and math.isfinite(err) and err <= bound,
                  f"(max err {err:.3g}, SDPA bf16 {err_sdpa:.3g}, bound {bound:.3g})")
        again = ops.attention_backward(d_out, q, k, v, o, lse, causal=causal, deterministic=True)
        twice = ops.attention_backward(d_out, q, k, v, o, lse, causal=causal, deterministic=True)
        check(f"{name} deterministic twice bitwise equal", all(torch.equal(x, y) for x, y in zip(again, twice)))
    # The autograd ops through torch.library's checks.
    q, k, v, d_out = (torch.randn(1, 130, 4, 64, device="cuda", dtype=bf, generator=g) for _ in range(4))
    o, lse = torch.ops.cute_cpp.attention_forward(q, k, v, True)
    grad_args = [t.detach().clone().requires_grad_(True) for t in (q, k, v)]
    utils = ("test_schema", "test_autograd_registration", "test_faketensor", "test_aot_dispatch_dynamic")
    for name, op, args, tests in (
            ("attention_forward", torch.ops.cute_cpp.attention_forward.default, (*grad_args, True), utils),
            ("attention_backward", torch.ops.cute_cpp.attention_backward.default, (d_out, q, k, v, o, lse, True),
             ("test_schema", "test_faketensor", "test_aot_dispatch_dynamic")),
            ("attention", torch.ops.cute_cpp.attention.default, (*grad_args, True), utils)):
        try:
            torch.library.opcheck(op, args, test_utils=tests)
            check(f"torch.library.opcheck cute_cpp::{name}", True)
        except Exception as e:
            check(f"torch.library.opcheck cute_cpp::{name}", False, f"({type(e).__name__}: {e})")
    # cute_cpp::attention's own gradient (its backward recomputes the LSE).
    ref = grads_of(lambda *t: sdpa_reference(*t, True), (q, k, v), d_out)
    got = grads_of(lambda *t: torch.ops.cute_cpp.attention(*t, True), (q, k, v), d_out)
    errs = [(x.double() - y).abs().max().item() / y.abs().max().item() for x, y in zip(got, ref)]
    check("cute_cpp::attention backward (autograd)", max(errs) < 2e-2, f"(relative max errors {errs})")
    attention_block_training(g)


class AttentionBlock(torch.nn.Module):
    """x -> QKV projection -> causal attention (GQA) -> output projection, attention pluggable."""

    def __init__(self, dim, heads, kv_heads, head_dim, attention):
        super().__init__()
        self.heads, self.kv_heads, self.head_dim, self.attention = heads, kv_heads, head_dim, attention
        self.qkv = torch.nn.Linear(dim, (heads + 2 * kv_heads) * head_dim, bias=False)
        self.out = torch.nn.Linear(heads * head_dim, dim, bias=False)

    def forward(self, x):
        b, s, _ = x.shape
        h, hkv, d = self.heads, self.kv_heads, self.head_dim
        qkv = self.qkv(x)
        q = qkv[..., :h * d].view(b, s, h, d)
        k = qkv[..., h * d:(h + hkv) * d].view(b, s, hkv, d)
        v = qkv[..., (h + hkv) * d:].view(b, s, hkv, d)
        return self.out(self.attention(q, k, v).reshape(b, s, h * d))


def attention_block_training(g):
    """One training step of an attention block under torch.compile(fullgraph=True) with cute-cpp's
    attention (forward and backward), its gradients against the same block on SDPA in float64, within
    2x the error of the block on SDPA in bf16 (or 1e-2 of the largest gradient)."""
    dim, heads, kv_heads, head_dim = 512, 8, 2, 64
    ours_attn = lambda q, k, v: torch.ops.cute_cpp.attention_forward(q, k, v, True)[0]
    blocks = {}
    torch.manual_seed(5)
    sdpa_bf16 = lambda q, k, v: sdpa_reference(q, k, v, True, torch.bfloat16)
    for name, attn, dtype in (("ours", ours_attn, torch.bfloat16), ("sdpa bf16", sdpa_bf16, torch.bfloat16),
                              ("reference", lambda q, k, v: sdpa_reference(q, k, v, True), torch.float64)):
        blocks[name] = AttentionBlock(dim, heads, kv_heads, head_dim, attn).cuda().to(dtype)
    for name in ("sdpa bf16", "ours"):
        blocks[name].load_state_dict({k: t.to(torch.bfloat16) for k, t in blocks["reference"].state_dict().items()})
    x = torch.randn(2, 333, dim, device="cuda", dtype=torch.bfloat16, generator=g)
    grads = {}
    try:
        for name, block in blocks.items():
            run = torch.compile(block, fullgraph=True) if name == "ours" else block
            xi = x.detach().clone().to(next(block.parameters()).dtype).requires_grad_(True)
            run(xi).float().square().mean().backward()
            grads[name] = [xi.grad] + [p.grad for p in block.parameters()]
        for i, what in enumerate(("x", "qkv.weight", "out.weight")):
            want = grads["reference"][i]
            err = (grads["ours"][i].double() - want).abs().max().item()
            err_sdpa = (grads["sdpa bf16"][i].double() - want).abs().max().item()
            bound = max(2 * err_sdpa, 1e-2 * want.abs().max().item())
            check(f"torch.compile training step of an attention block: grad {what}", err <= bound,
                  f"(max err {err:.3g}, SDPA bf16 {err_sdpa:.3g})")
    except Exception as e:
        check("torch.compile training step of an attention block", False, f"({type(e).__name__}: {e})")


def benchmarks(ops):
    records = []
    bf = torch.bfloat16

    def record(kernel, shape, ours_ms, ref_ms, ref_name, flops=None, dtype="bf16"):
        ratio = ref_ms / ours_ms
        records.append({"kernel": kernel, "shape": shape, "dtype": dtype,
                        "ours": flops / ours_ms / 1e9 if flops else ours_ms * 1e3,
                        "reference": ref_name, "reference_value": flops / ref_ms / 1e9 if flops else ref_ms * 1e3,
                        "unit": "TFLOP/s" if flops else "us", "ratio": ratio, "microseconds": ours_ms * 1e3})
        print(f"{kernel} {shape}: ours {ours_ms * 1e3:.1f} us, {ref_name} {ref_ms * 1e3:.1f} us, ratio {ratio:.3f}",
              flush=True)

    for m, n, k in ((8192, 8192, 8192), (16, 12288, 4096)):
        x = torch.randn(m, k, device="cuda", dtype=bf)
        w = torch.randn(n, k, device="cuda", dtype=bf)
        out = torch.empty(m, n, device="cuda", dtype=bf)
        ours, ref = time_pair(lambda: ops.linear(x, w, out=out), lambda: torch.matmul(x, w.T, out=out))
        record("python ops.linear", f"{m}x{n}x{k}", ours, ref, "torch.matmul", 2 * m * n * k)
    x = torch.randn(16384, 4096, device="cuda", dtype=bf)
    w = torch.randn(4096, device="cuda", dtype=bf)
    y = torch.empty_like(x)
    record("python ops.rmsnorm", "16384x4096",
           *time_pair(lambda: ops.rmsnorm(x, w, out=y), lambda: F.rms_norm(x, (4096,), w, 1e-6)), "F.rms_norm")
    q = torch.randn(4, 4096, 32, 128, device="cuda", dtype=bf)
    kv = torch.randn(4, 4096, 8, 128, device="cuda", dtype=bf)
    o = torch.empty_like(q)
    flops = 4 * 4 * 32 * 4096 * 4096 * 128 // 2
    record("python ops.attention", "B4 H32/8 S4096 D128 causal",
           *time_pair(lambda: ops.attention(q, kv, kv, causal=True, out=o),
                      lambda: F.scaled_dot_product_attention(q.transpose(1, 2), kv.transpose(1, 2), kv.transpose(1, 2),
                                                             is_causal=True, enable_gqa=True)),
           "F.scaled_dot_product_attention", flops)
    x = torch.randn(16384, 4096, device="cuda", dtype=bf)
    y = torch.empty_like(x)
    record("python ops.softmax", "16384x4096", *time_pair(lambda: ops.softmax(x, out=y), lambda: F.softmax(x, -1)),
           "F.softmax")
    h = torch.empty(16384, 2048, device="cuda", dtype=bf)
    record("python ops.swiglu", "16384x4096", *time_pair(lambda: ops.swiglu(x, out=h),
                                                         lambda: F.silu(x[:, :2048]) * x[:, 2048:]), "F.silu * up")
    r = torch.empty(16384, device="cuda", dtype=torch.float32)
    record("python ops.reduce sum", "16384x4096", *time_pair(lambda: ops.reduce(x, "sum", out=r),
                                                             lambda: x.sum(-1, dtype=torch.float32)), "torch.sum")
    x2 = torch.randn_like(x)
    record("python ops.add", "16384x4096", *time_pair(lambda: ops.add(x, x2, out=y), lambda: torch.add(x, x2, out=y)),
           "torch.add")
    # FP8 against torch._scaled_mm (cuBLASLt per tensor; rowwise: torch's own kernel).
    m, n, k = 4096, 14336, 4096
    a = (torch.randn(m, k, device="cuda") * 2).to(torch.float8_e4m3fn)
    w = (torch.randn(n, k, device="cuda") * 2).to(torch.float8_e4m3fn)
    y = torch.empty(m, n, device="cuda", dtype=bf)
    one = torch.ones(1, device="cuda")
    rows, cols = torch.rand(m, 1, device="cuda") + 0.5, torch.rand(1, n, device="cuda") + 0.5
    blocks_a, blocks_b = torch.rand(m, k // 128, device="cuda") + 0.5, torch.rand(n // 128, k // 128, device="cuda") + 0.5
    flops = 2 * m * n * k
    record("python ops.scaled_mm per tensor", f"{m}x{n}x{k}", *time_pair(
        lambda: ops.scaled_mm(a, w.T, one, one, out=y),
        lambda: torch._scaled_mm(a, w.T, one, one, out_dtype=bf)), "torch._scaled_mm per tensor", flops, "fp8")
    record("python ops.scaled_mm per tensor, two-level accumulation", f"{m}x{n}x{k}", *time_pair(
        lambda: ops.scaled_mm(a, w.T, one, one, use_fast_accum=False, out=y),
        lambda: torch._scaled_mm(a, w.T, one, one, out_dtype=bf, use_fast_accum=False)),
        "torch._scaled_mm per tensor, use_fast_accum=False", flops, "fp8")
    record("python ops.scaled_mm rowwise", f"{m}x{n}x{k}", *time_pair(
        lambda: ops.scaled_mm(a, w.T, rows, cols, out=y),
        lambda: torch._scaled_mm(a, w.T, rows, cols, out_dtype=bf)), "torch._scaled_mm rowwise", flops, "fp8")
    record("python ops.scaled_mm 1x128/128x128 blocks", f"{m}x{n}x{k}", *time_pair(
        lambda: ops.scaled_mm(a, w.T, blocks_a, blocks_b, out=y),
        lambda: torch._scaled_mm(a, w.T, rows, cols, out_dtype=bf)), "torch._scaled_mm rowwise", flops, "fp8")
    # Grouped (MoE) against torch._grouped_mm: Qwen3-30B-A3B's experts (128, top-8, hidden 2048, expert
    # FFN 768) at 4096 tokens, the loads drawn uneven; and 64 rows for each of 128 experts.
    gen = torch.Generator(device="cuda").manual_seed(7)
    last_loads = None  # the down projection takes the gate-up's loads
    for name, loads, n, k in (
            ("4096 tokens top-8 of 128 experts, gate-up N1536 K2048",
             torch.multinomial(torch.rand(128, device="cuda", generator=gen) + 0.5, 4096 * 8, True, generator=gen)
             .bincount(minlength=128), 1536, 2048),
            ("4096 tokens top-8 of 128 experts, down N2048 K768", None, 2048, 768),
            ("128 experts x 64 rows, N2048 K768", torch.full((128,), 64, device="cuda"), 2048, 768)):
        if loads is None:
            loads = last_loads
        last_loads = loads
        # torch._grouped_mm takes offsets that are multiples of 16 rows: the loads are rounded up.
        loads = (loads + 15) // 16 * 16
        offs = loads.cumsum(0).to(torch.int32)
        m = int(offs[-1])
        a = torch.randn(m, k, device="cuda", dtype=bf)
        wt = (torch.randn(128, n, k, device="cuda", dtype=bf) / k ** 0.5).transpose(-2, -1)
        y = torch.empty(m, n, device="cuda", dtype=bf)
        ok = torch.allclose(ops.grouped_mm(a, wt, offs, out=y).float(), torch._grouped_mm(a, wt, offs=offs).float(),
                            rtol=1 / 64, atol=1e-2)
        check(f"grouped_mm {name} matches torch._grouped_mm", ok)
        record("python ops.grouped_mm", name, *time_pair(lambda: ops.grouped_mm(a, wt, offs, out=y),
                                                         lambda: torch._grouped_mm(a, wt, offs=offs)),
               "torch._grouped_mm", 2 * m * n * k)
    # Per-call overhead at a tiny size: host time per call.
    xs, ws = torch.randn(8, 64, device="cuda", dtype=bf), torch.randn(64, 64, device="cuda", dtype=bf)
    outs = torch.empty(8, 64, device="cuda", dtype=bf)
    # Alternating rounds, the median of each side: the host's speed drifted by a fifth between runs.
    rounds = [(host_us(lambda: ops.linear(xs, ws, out=outs), 1000), host_us(lambda: torch.matmul(xs, ws.T, out=outs), 1000))
              for _ in range(7)]
    ours = sorted(r[0] for r in rounds)[3]
    ref = sorted(r[1] for r in rounds)[3]
    records.append({"kernel": "python ops.linear host overhead", "shape": "8x64x64", "dtype": "bf16", "ours": ours,
                    "reference": "torch.matmul", "reference_value": ref, "unit": "us/call (host)",
                    "ratio": ref / ours, "microseconds": ours})
    print(f"host time per call: ours {ours:.1f} us, torch.matmul {ref:.1f} us", flush=True)
    return records


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", required=True)
    ap.add_argument("--json")
    ap.add_argument("--package", help="a folder holding an installed cute_cpp (a wheel's) instead of the build's")
    ap.add_argument("--no-bench", action="store_true", help="the checks only")
    opts = ap.parse_args()
    sys.path.insert(0, opts.package or str(Path(opts.build) / "python"))
    import cute_cpp.ops as ops
    print(f"cute_cpp from {Path(ops.__file__).parent}", flush=True)
    checks(ops)
    attention_backward_checks(ops)
    import gpu_ops_serving  # beside this file
    gpu_ops_serving.decode_checks(ops, check, close)
    gpu_ops_serving.moe_checks(ops, check, close)
    gpu_ops_serving.ssm_checks(ops, check, close)
    records = benchmarks(ops) if not failures and not opts.no_bench else []
    if opts.json:
        Path(opts.json).write_text(json.dumps(records, indent=1) + "\n")
    print(f"{len(failures)} failed" if failures else "all checks pass")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
