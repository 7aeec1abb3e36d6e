#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: 2026 cute-cpp authors
"""Times cute-cpp's Hopper attention (libcute_cpp_fmha.so, through its C entry point) against PyTorch's
scaled_dot_product_attention on the cuDNN backend and, where scripts/fa4-install put it on this machine,
FlashAttention-4, in one process, and checks each against an fp32 reference on the same fresh random
data (outputs poisoned first). Each reference is a record of its own.

  bench/attention/bench_sdpa_fmha.py --build BUILD [--json FILE] [--quick] [--sweep] [--only NAME] [--lib LIB]
                                     [--fa4 auto|off] [--fp8 on|off|only]

cuDNN is timed at its best as a user would call it: of [B, S, H, D] views (what a model's projections
give), contiguous [B, H, S, D] copies, and for GQA its native grouped heads (enable_gqa) beside K/V
expanded to every q head, the fastest in a short trial is the one timed.

BUILD holds the C library (BUILD/kernels/libcute_cpp_fmha.so). Its records keep the name the
example program gave them (kernel fmha_sm90), so scripts/gpu-check compares them across commits.

Method (as bench/support/bench.hpp): per round, L2 flushed, a spin queued ahead so that launch
overhead is not timed, ours and cuDNN alternately; the median of 50 rounds after 10 warm-up rounds.
FLOPs: 4 B H Sq Sk D (halved for causal), the convention of FlashAttention and cuDNN's figures.

FP8 (--fp8 on, the default; only: nothing else): the FP8 forward (cute_cpp_fmha_fp8_forward: e4m3 Q,
K, V quantized here per (sequence, kv head), their descales, bf16 O) checked against an fp32
reference of the dequantized inputs and timed against our bf16 forward on the same shapes (records
"fmha fp8", reference "ours bf16"), and against PyTorch's cuDNN SDPA on e4m3 tensors where this
PyTorch takes them (it is tried; where refused, the output says so)."""
import argparse
import ctypes
import json
import math
import sys
from pathlib import Path

import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench/support"))
import fa4  # noqa: E402
from torch_timing import time_pair  # noqa: E402


class Fmha:
    def __init__(self, path):
        self.lib = ctypes.CDLL(str(path))
        f = self.lib.cute_cpp_fmha_forward
        f.restype = ctypes.c_int
        P, I, L, Fl = ctypes.c_void_p, ctypes.c_int, ctypes.c_longlong, ctypes.c_float
        f.argtypes = [I, P, P, P, P, P, P, I, I, I, I, I, I, I, Fl, I, I, I, P, P, L, L, P, ctypes.c_char_p,
                      ctypes.c_ulong]
        self.message = ctypes.create_string_buffer(1024)

    def __call__(self, q, k, v, o, lse=None, causal=False, window=(-1, -1), cu_q=None, cu_k=None, max_q=0,
                 max_k=0):
        """q, k, v, o: [B, S, H, D] (or [total, H, D] with cu_q / cu_k)."""
        varlen = cu_q is not None
        if varlen:
            batch, seq_q, seq_k = cu_q.numel() - 1, max_q, max_k
            strides = [0, q.stride(0), q.stride(1), 0, k.stride(0), k.stride(1), 0, v.stride(0), v.stride(1), 0,
                       o.stride(0), o.stride(1)]
        else:
            batch, seq_q, seq_k = q.shape[0], q.shape[1], k.shape[1]
            strides = [s for t in (q, k, v, o) for s in t.stride()[:3]]
        arr = (ctypes.c_longlong * 12)(*strides)
        dtype = {torch.bfloat16: 0, torch.float16: 1}[q.dtype]
        rc = self.lib.cute_cpp_fmha_forward(
            dtype, q.data_ptr(), k.data_ptr(), v.data_ptr(), o.data_ptr(), lse.data_ptr() if lse is not None else None,
            arr, batch, seq_q, seq_k, q.shape[-2], k.shape[-2], q.shape[-1], v.shape[-1], 0.0, int(causal),
            window[0], window[1], cu_q.data_ptr() if varlen else None, cu_k.data_ptr() if varlen else None,
            q.shape[0] if varlen else 0, k.shape[0] if varlen else 0, torch.cuda.current_stream().cuda_stream,
            self.message, 1024)
        if rc != 0:
            raise ValueError(self.message.value.decode())

    def fp8(self, q, k, v, o, descales, lse=None, causal=False):
        """q, k, v: [B, S, H, D] float8_e4m3fn; o: [B, S, H, D] bf16; descales: (dq, dk, dv) float32
        [B, Hkv] (per (sequence, kv head))."""
        f = self.lib.cute_cpp_fmha_fp8_forward
        if f.argtypes is None:
            P, I, L, Fl = ctypes.c_void_p, ctypes.c_int, ctypes.c_longlong, ctypes.c_float
            f.restype = ctypes.c_int
            f.argtypes = [P, P, P, P, P, P, P, P, I, P, I, I, I, I, I, I, I, Fl, I, I, I, P, P, L, L, P,
                          ctypes.c_char_p, ctypes.c_ulong]
        arr = (ctypes.c_longlong * 12)(*[s for t in (q, k, v, o) for s in t.stride()[:3]])
        dq, dk, dv = descales
        rc = f(q.data_ptr(), k.data_ptr(), v.data_ptr(), o.data_ptr(), lse.data_ptr() if lse is not None else None,
               dq.data_ptr(), dk.data_ptr(), dv.data_ptr(), 1, arr, q.shape[0], q.shape[1], k.shape[1], q.shape[2],
               k.shape[2], q.shape[3], v.shape[3], 0.0, int(causal), -1, -1, None, None, 0, 0,
               torch.cuda.current_stream().cuda_stream, self.message, 1024)
        if rc != 0:
            raise ValueError(self.message.value.decode())


def reference(q, k, v, causal, window=(-1, -1)):
    """fp32 attention of [B, S, H, D] tensors, per batch and head chunk (bottom-right causal)."""
    B, Sq, H, D = q.shape
    Sk, Hkv = k.shape[1], k.shape[2]
    out = torch.empty(B, Sq, H, v.shape[-1], device=q.device, dtype=torch.float32)
    lse = torch.empty(B, H, Sq, device=q.device, dtype=torch.float32)
    i = torch.arange(Sq, device=q.device)[:, None]
    j = torch.arange(Sk, device=q.device)[None, :]
    diag = i + Sk - Sq
    visible = torch.ones(Sq, Sk, dtype=torch.bool, device=q.device)
    if causal:
        visible &= j <= diag
    if window[0] >= 0:
        visible &= j >= diag - window[0]
    if window[1] >= 0:
        visible &= j <= diag + window[1]
    scale = 1.0 / math.sqrt(D)
    chunk = max(1, (1 << 31) // (Sq * Sk * 4))
    for b in range(B):
        for h0 in range(0, H, chunk):
            hs = list(range(h0, min(H, h0 + chunk)))
            qh = q[b, :, hs].float().transpose(0, 1)
            kh = k[b, :, [h * Hkv // H for h in hs]].float().transpose(0, 1)
            vh = v[b, :, [h * Hkv // H for h in hs]].float().transpose(0, 1)
            s = (qh @ kh.transpose(1, 2)) * scale
            s = s.masked_fill(~visible, float("-inf"))
            l = torch.logsumexp(s, dim=-1)
            p = torch.exp(s - l[..., None]).nan_to_num(0.0)
            out[b, :, hs] = (p @ vh).transpose(0, 1)
            lse[b, hs] = l
    return out, lse


def cudnn_sdpa(q, k, v, causal):
    """PyTorch SDPA on cuDNN, [B, S, H, D] in place (strided views); K/V with as many heads as q."""
    with sdpa_kernel([SDPBackend.CUDNN_ATTENTION]):
        return F.scaled_dot_product_attention(q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2),
                                              is_causal=causal).transpose(1, 2)


def expand_kv(t, heads):
    return t if t.shape[2] == heads else t.repeat_interleave(heads // t.shape[2], dim=2).contiguous()


def best_cudnn(q, k, v, causal):
    """(call, how): cuDNN's fastest way to compute attention of these [B, S, H, D] tensors, among the
    layouts a user passes, in a short trial; the copies each needs are made here, outside the timing."""
    H = q.shape[2]
    ke, ve = expand_kv(k, H), expand_kv(v, H)
    qt, kt, vt = (t.transpose(1, 2).contiguous() for t in (q, ke, ve))

    def bhsd():
        with sdpa_kernel([SDPBackend.CUDNN_ATTENTION]):
            return F.scaled_dot_product_attention(qt, kt, vt, is_causal=causal).transpose(1, 2)

    ways = [(lambda: cudnn_sdpa(q, ke, ve, causal), "[B, S, H, D] views"), (bhsd, "contiguous [B, H, S, D]")]
    if k.shape[2] != H:
        def grouped():
            with sdpa_kernel([SDPBackend.CUDNN_ATTENTION]):
                return F.scaled_dot_product_attention(q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2),
                                                      is_causal=causal, enable_gqa=True).transpose(1, 2)
        try:
            grouped()
            ways.append((grouped, "native GQA (enable_gqa)"))
        except RuntimeError:  # no grouped-head cuDNN kernel in this PyTorch: the expanded forms stand
            pass
    best = ways[0]
    for way in ways[1:]:
        t_way, t_best = time_pair(way[0], best[0], rounds=10, warmup=3)
        if t_way < t_best:
            best = way
    return best


def against_fa4(flash, name, run_ours, run_theirs, ref_o, flops, records):
    """FlashAttention-4 on one case beside ours: its error printed (a reference's accuracy is not
    ours to fail on), both timed alternately, a record of its own. False where FA4 refused the case."""
    try:
        err = (run_theirs().float() - ref_o).abs().max().item() if ref_o is not None else float("nan")
    except Exception as e:  # a case FA4 does not take on this GPU: said, not fatal
        print(f"{name:34s} FlashAttention-4 refused: {type(e).__name__}: {str(e)[:120]}", flush=True)
        return False
    t_ours, t_ref = time_pair(run_ours, run_theirs)
    ours, ref = flops / t_ours / 1e9, flops / t_ref / 1e9
    print(f"{name:34s} max|O-ref| FA4 {err:.2e}  ours {ours:6.1f}  FA4 {ref:6.1f} TFLOP/s  ratio {ours / ref:.3f}",
          flush=True)
    records.append(dict(kernel="fmha_sm90", shape=name, dtype="bf16", ours=ours, reference=flash.name,
                        reference_value=ref, unit="TFLOP/s", ratio=ours / ref, microseconds=t_ours * 1e3))
    return True


def dense_name(B, H, Hkv, S, D, causal):
    return f"B{B} H{H}" + (f"/{Hkv}" if Hkv != H else "") + f" S{S} D{D}" + (" causal" if causal else "")


def varlen_name(causal):
    return "varlen 8 seqs 512-8192 H32 D128" + (" causal" if causal else "")


def dense_case(fmha, flash, B, H, Hkv, S, D, causal, records):
    """One [B, S, H, D] case: ours checked against the fp32 reference (as cuDNN's error allows), then
    timed against cuDNN at its best and FlashAttention-4 where present. Returns whether ours passed."""
    dt = torch.bfloat16
    name = dense_name(B, H, Hkv, S, D, causal)
    q = torch.empty(B, S, H, D, device="cuda", dtype=dt).uniform_(-1, 1)
    k = torch.empty(B, S, Hkv, D, device="cuda", dtype=dt).uniform_(-1, 1)
    v = torch.empty(B, S, Hkv, D, device="cuda", dtype=dt).uniform_(-1, 1)
    o = torch.full((B, S, H, D), float("nan"), device="cuda", dtype=dt)
    lse = torch.full((B, H, S), float("nan"), device="cuda", dtype=torch.float32)
    fmha(q, k, v, o, lse, causal=causal)
    ref_o, ref_lse = reference(q, k, v, causal)
    cudnn, how = best_cudnn(q, k, v, causal)
    err = (o.float() - ref_o).abs().max().item()
    err_cudnn = (cudnn().float() - ref_o).abs().max().item()
    err_lse = (lse - ref_lse).abs().max().item()
    good = math.isfinite(err) and err <= max(2e-2, 2 * err_cudnn) and err_lse <= 1e-3
    del ref_lse
    run_ours = lambda: fmha(q, k, v, o, causal=causal)
    flops = 4.0 * B * H * S * S * D / (2 if causal else 1)
    if flash:
        against_fa4(flash, name, run_ours, lambda: flash(q, k, v, causal), ref_o, flops, records)
    del ref_o
    t_ours, t_ref = time_pair(run_ours, cudnn)
    ours, ref = flops / t_ours / 1e9, flops / t_ref / 1e9
    print(f"{name:34s} {'ok ' if good else 'BAD'} max|O-ref| {err:.2e} (cuDNN {err_cudnn:.2e}) "
          f"max|LSE-ref| {err_lse:.1e}  ours {ours:6.1f}  cuDNN {ref:6.1f} TFLOP/s  ratio {ours / ref:.3f}  "
          f"(cuDNN on {how})", flush=True)
    # Without GQA the name is the one of the records before cuDNN's layout was chosen (what it computes
    # is the same), so their history compares; with GQA the grouped form may now be the one timed.
    reference_name = "cuDNN SDPA (PyTorch)" + (", GQA at its best" if Hkv != H else "")
    records.append(dict(kernel="fmha_sm90", shape=name, dtype="bf16", ours=ours, reference=reference_name,
                        reference_value=ref, unit="TFLOP/s", ratio=ours / ref, microseconds=t_ours * 1e3))
    return good


def varlen_case(fmha, flash, causal, records):
    """One launch over packed sequences of mixed lengths, against cuDNN called once per sequence (what
    a caller without a varlen kernel does) and FlashAttention-4's varlen call, the same FLOPs each way.
    Returns whether ours passed."""
    dt = torch.bfloat16
    lengths = [8192, 512, 3000, 1024, 6000, 700, 4096, 2048]
    H, D = 32, 128
    name = varlen_name(causal)
    total = sum(lengths)
    cu = torch.tensor([0] + list(torch.tensor(lengths).cumsum(0)), dtype=torch.int32, device="cuda")
    q, k, v = (torch.empty(total, H, D, device="cuda", dtype=dt).uniform_(-1, 1) for _ in range(3))
    o = torch.full((total, H, D), float("nan"), device="cuda", dtype=dt)
    run = lambda: fmha(q, k, v, o, causal=causal, cu_q=cu, cu_k=cu, max_q=max(lengths), max_k=max(lengths))
    run()
    seqs = [(int(cu[i]), int(cu[i + 1])) for i in range(len(lengths))]
    err = 0.0
    for a, b in seqs:
        ref_o, _ = reference(q[None, a:b], k[None, a:b], v[None, a:b], causal)
        err = max(err, (o[a:b].float() - ref_o[0]).abs().max().item())
    good = math.isfinite(err) and err <= 2e-2
    flops = sum(4.0 * H * n * n * D / (2 if causal else 1) for n in lengths)
    if flash:  # its error over the packed rows is not checked here (ours is, sequence by sequence)
        against_fa4(flash, name, run, lambda: flash.varlen(q, k, v, cu, max(lengths), causal), None, flops, records)

    def theirs():
        for a, b in seqs:
            cudnn_sdpa(q[None, a:b], k[None, a:b], v[None, a:b], causal)

    t_ours, t_ref = time_pair(run, theirs)
    ours, ref = flops / t_ours / 1e9, flops / t_ref / 1e9
    print(f"{name:34s} {'ok ' if good else 'BAD'} max|O-ref| {err:.2e}  ours {ours:6.1f}  cuDNN {ref:6.1f} "
          f"TFLOP/s  ratio {ours / ref:.3f}", flush=True)
    records.append(dict(kernel="fmha_sm90", shape=name, dtype="bf16", ours=ours,
                        reference="cuDNN SDPA (PyTorch), one call per sequence", reference_value=ref,
                        unit="TFLOP/s", ratio=ours / ref, microseconds=t_ours * 1e3))
    return good


def quantize_e4m3(x, Hkv):
    """x [B, S, H, D] -> (e4m3 [B, S, H, D], descale [B, Hkv] float32, dequantized fp32): one factor per
    (sequence, kv head), amax / 448 over the kv head's q heads (FlashAttention-3's descale layout)."""
    B, S, H, D = x.shape
    groups = x.float().reshape(B, S, Hkv, H // Hkv, D)
    scale = (groups.abs().amax(dim=(1, 3, 4)) / 448.0).clamp(min=1e-12)
    x8 = (groups / scale[:, None, :, None, None]).reshape(B, S, H, D).to(torch.float8_e4m3fn)
    deq = (x8.float().reshape(B, S, Hkv, H // Hkv, D) * scale[:, None, :, None, None]).reshape(B, S, H, D)
    return x8, scale.contiguous(), deq


def cudnn_fp8(q8, k8, v8, causal):
    """PyTorch's SDPA on cuDNN with e4m3 inputs, where this PyTorch takes them (None where it does not,
    with the reason). Its API has no descales: it is timed on the same work, its output not checked."""
    H = q8.shape[2]
    try:
        qt, kt, vt = (expand_kv(t, H).transpose(1, 2).contiguous() for t in (q8, k8, v8))

        def run():
            with sdpa_kernel([SDPBackend.CUDNN_ATTENTION]):
                return F.scaled_dot_product_attention(qt, kt, vt, is_causal=causal)
        run()
        return run, ""
    except Exception as e:  # no FP8 SDPA in this PyTorch: said, not fatal
        return None, f"{type(e).__name__}: {str(e)[:100]}"


def fp8_case(fmha, B, H, Hkv, S, D, causal, records):
    """One FP8 case: ours (e4m3 in, bf16 out) checked against the fp32 reference of the dequantized
    inputs, then timed against our bf16 forward on the same shape (and cuDNN on e4m3 where PyTorch
    takes it). Returns whether ours passed."""
    name = dense_name(B, H, Hkv, S, D, causal)
    q = torch.empty(B, S, H, D, device="cuda", dtype=torch.bfloat16).uniform_(-1, 1)
    k = torch.empty(B, S, Hkv, D, device="cuda", dtype=torch.bfloat16).uniform_(-1, 1)
    v = torch.empty(B, S, Hkv, D, device="cuda", dtype=torch.bfloat16).uniform_(-1, 1)
    (q8, dq, qd), (k8, dk, kd), (v8, dv, vd) = (quantize_e4m3(t, Hkv) for t in (q, k, v))
    o8 = torch.full((B, S, H, D), float("nan"), device="cuda", dtype=torch.bfloat16)
    lse = torch.full((B, H, S), float("nan"), device="cuda", dtype=torch.float32)
    fmha.fp8(q8, k8, v8, o8, (dq, dk, dv), lse, causal=causal)
    ref_o, ref_lse = reference(qd, kd, vd, causal)
    del qd, kd
    err = (o8.float() - ref_o).abs().max().item()
    err_lse = (lse - ref_lse).abs().max().item()
    # P's e4m3 rounding moves O by at most 2^-4 sum_j p_j |v_j| <= 2^-4 max|v| (fmha_fp8_check's bound),
    # O's bf16 rounding 2^-8 |O|; the scores' float accumulation the LSE by well under 1e-2 here.
    bound = vd.abs().max().item() / 16 + ref_o.abs().max().item() / 256
    good = math.isfinite(err) and err <= bound and err_lse <= 1e-2
    del ref_o, ref_lse, vd
    o = torch.empty(B, S, H, D, device="cuda", dtype=torch.bfloat16)
    run_fp8 = lambda: fmha.fp8(q8, k8, v8, o8, (dq, dk, dv), causal=causal)
    run_bf16 = lambda: fmha(q, k, v, o, causal=causal)
    flops = 4.0 * B * H * S * S * D / (2 if causal else 1)
    t_ours, t_ref = time_pair(run_fp8, run_bf16)
    ours, ref = flops / t_ours / 1e9, flops / t_ref / 1e9
    print(f"fp8 {name:30s} {'ok ' if good else 'BAD'} max|O-ref| {err:.2e} (bound {bound:.2e}) "
          f"max|LSE-ref| {err_lse:.1e}  ours e4m3 {ours:6.1f}  ours bf16 {ref:6.1f} TFLOP/s  ratio {ours / ref:.3f}",
          flush=True)
    records.append(dict(kernel="fmha fp8", shape=name, dtype="e4m3", ours=ours, reference="ours bf16 (fmha_sm90)",
                        reference_value=ref, unit="TFLOP/s", ratio=ours / ref, microseconds=t_ours * 1e3))
    cudnn, why = cudnn_fp8(q8, k8, v8, causal)
    if cudnn is None:
        print(f"fp8 {name:30s} cuDNN FP8 SDPA: not taken by this PyTorch ({why})", flush=True)
    else:
        t_ours, t_ref = time_pair(run_fp8, cudnn)
        ours, ref = flops / t_ours / 1e9, flops / t_ref / 1e9
        print(f"fp8 {name:30s} ours e4m3 {ours:6.1f}  cuDNN e4m3 {ref:6.1f} TFLOP/s  ratio {ours / ref:.3f}", flush=True)
        records.append(dict(kernel="fmha fp8", shape=name, dtype="e4m3", ours=ours, reference="cuDNN SDPA e4m3 (PyTorch)",
                            reference_value=ref, unit="TFLOP/s", ratio=ours / ref, microseconds=t_ours * 1e3))
    return good


FP8_CONFIGS = [  # (B, H, Hkv, S, D, causal): the FP8 forward's head dims
    (4, 32, 32, 4096, 128, False), (4, 32, 32, 4096, 128, True),
    (4, 32, 32, 4096, 64, False), (4, 32, 32, 4096, 64, True),
    (4, 32, 32, 4096, 256, False), (4, 32, 32, 4096, 256, True),
    (16, 32, 32, 1024, 128, False), (16, 32, 32, 1024, 128, True),
    (1, 32, 32, 16384, 128, False), (1, 32, 32, 16384, 128, True),
    (4, 32, 8, 4096, 128, False), (4, 32, 8, 4096, 128, True),
]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", required=True)
    ap.add_argument("--json")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--lib", help="another build of libcute_cpp_fmha.so (default: the build's)")
    ap.add_argument("--only", help="run the configurations whose name contains this")
    ap.add_argument("--sweep", action="store_true",
                    help="D64 and D128 over sequence lengths 512-8192 at 64k tokens (the key tile's choice, kernels/attention/prefill/README.md)")
    ap.add_argument("--fa4", choices=("auto", "off"), default="auto",
                    help="time FlashAttention-4 too where scripts/fa4-install put it (auto), or not")
    ap.add_argument("--fp8", choices=("on", "off", "only"), default="on",
                    help="the FP8 forward's section (on), not (off), or only it (only)")
    opts = ap.parse_args()
    fmha = Fmha(opts.lib or Path(opts.build) / "kernels/libcute_cpp_fmha.so")
    flash, why = fa4.load() if opts.fa4 == "auto" else (None, "--fa4 off")
    print(f"FlashAttention-4: {flash.name if flash else 'absent, ' + why}", flush=True)
    torch.manual_seed(int.from_bytes(__import__("os").urandom(4), "little"))
    configs = [  # (B, H, Hkv, S, D, causal)
        (4, 32, 32, 4096, 128, False), (4, 32, 32, 4096, 128, True),
        (4, 32, 32, 4096, 64, False), (4, 32, 32, 4096, 64, True),
        (4, 32, 32, 4096, 256, False), (4, 32, 32, 4096, 256, True),
        (16, 32, 32, 1024, 128, False), (16, 32, 32, 1024, 128, True),
        (1, 32, 32, 16384, 128, False), (1, 32, 32, 16384, 128, True),
        (4, 32, 8, 4096, 128, False), (4, 32, 8, 4096, 128, True),
    ]
    if opts.quick:
        configs = configs[:2]
    if opts.sweep:
        configs = [(65536 // S, 32, 32, S, D, causal) for D in (64, 128)
                   for S in (512, 768, 1024, 1280, 1536, 2048, 3072, 4096, 8192) for causal in (False, True)]
    if opts.fp8 == "only":
        configs = []
    records, ok = [], True
    for B, H, Hkv, S, D, causal in configs:
        if not (opts.only and opts.only not in dense_name(B, H, Hkv, S, D, causal)):
            ok &= dense_case(fmha, flash, B, H, Hkv, S, D, causal, records)
    for causal in (False, True):
        if not (opts.quick or opts.sweep or opts.fp8 == "only" or (opts.only and opts.only not in varlen_name(causal))):
            ok &= varlen_case(fmha, flash, causal, records)
    if opts.fp8 != "off" and not opts.sweep:
        for B, H, Hkv, S, D, causal in FP8_CONFIGS[:1] if opts.quick else FP8_CONFIGS:
            if not (opts.only and opts.only not in dense_name(B, H, Hkv, S, D, causal)):
                ok &= fp8_case(fmha, B, H, Hkv, S, D, causal, records)
    if opts.json:
        Path(opts.json).write_text(json.dumps(records, indent=1) + "\n")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
