#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: 2026 cute-cpp authors
"""Times cute-cpp's Hopper attention backward (libcute_cpp_fmha.so, cute_cpp_fmha_backward through its C
entry point) against the backward of PyTorch's scaled_dot_product_attention on the cuDNN backend, in
one process, and checks both against an fp32 reference on a slice of the same fresh random data
(one kv head's group of q heads of the first sequence; outputs poisoned first).

  bench/attention/bench_sdpa_fmha_backward.py --build BUILD [--json FILE] [--quick] [--only NAME] [--lib LIB]

Records: kernel fmha_backward_sm90, shapes "attention backward ..." (the backward alone: ours is the
memset of the workspace's dQ, the preprocess, the main kernel and the postprocess; cuDNN's is
torch.autograd.grad of its output, as a training step calls it) and "attention forward+backward ..."
(both passes, ours the forward with its LSE then the backward); the same two against
FlashAttention-4's autograd (GQA native) as records of their own where scripts/fa4-install put it
on this machine (bench/support/fa4.py; --fa4 off skips it).

Method (bench/support/torch_timing.py): per round, L2 flushed, a spin queued ahead, ours and cuDNN
alternately; the median of 50 rounds after 10 warm-up rounds. FLOPs of the backward: 10 B H Sq Sk D
(five GEMMs to the forward's two; halved for causal), FlashAttention's and cuDNN's convention."""
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

P, I, L, Fl = ctypes.c_void_p, ctypes.c_int, ctypes.c_longlong, ctypes.c_float


class FmhaBackward:
    """The forward (with its LSE) and the backward of libcute_cpp_fmha.so on [B, S, H, D] tensors."""

    def __init__(self, path):
        self.lib = ctypes.CDLL(str(path))
        f = self.lib.cute_cpp_fmha_forward
        f.restype = I
        f.argtypes = [I, P, P, P, P, P, P, I, I, I, I, I, I, I, Fl, I, I, I, P, P, L, L, P, ctypes.c_char_p,
                      ctypes.c_ulong]
        b = self.lib.cute_cpp_fmha_backward
        b.restype = I
        b.argtypes = [I, P, P, P, P, P, P, P, P, P, P, I, I, I, I, I, I, Fl, I, I, P, P, L, L, P, ctypes.c_ulonglong,
                      P, ctypes.c_char_p, ctypes.c_ulong]
        w = self.lib.cute_cpp_fmha_backward_workspace_bytes
        w.restype = I
        w.argtypes = [I, I, I, I, L, I, I, ctypes.POINTER(ctypes.c_ulonglong), ctypes.c_char_p, ctypes.c_ulong]
        self.message = ctypes.create_string_buffer(1024)
        self.workspace = None

    def _check(self, rc):
        if rc != 0:
            raise ValueError(self.message.value.decode())

    def forward(self, q, k, v, o, lse, causal):
        dtype = {torch.bfloat16: 0, torch.float16: 1}[q.dtype]
        self._check(self.lib.cute_cpp_fmha_forward(
            dtype, q.data_ptr(), k.data_ptr(), v.data_ptr(), o.data_ptr(), lse.data_ptr(), None, q.shape[0],
            q.shape[1], k.shape[1], q.shape[2], k.shape[2], q.shape[3], v.shape[3], 0.0, int(causal), -1, -1, None,
            None, 0, 0, torch.cuda.current_stream().cuda_stream, self.message, 1024))

    def backward(self, d_out, q, k, v, o, lse, dq, dk, dv, causal, deterministic=False):
        B, S, H, D = q.shape
        need = ctypes.c_ulonglong(0)
        self._check(self.lib.cute_cpp_fmha_backward_workspace_bytes(B, S, H, D, 0, 0, int(deterministic),
                                                                    ctypes.byref(need), self.message, 1024))
        if self.workspace is None or self.workspace.numel() < need.value:
            self.workspace = torch.empty(need.value, dtype=torch.uint8, device="cuda")
        dtype = {torch.bfloat16: 0, torch.float16: 1}[q.dtype]
        self._check(self.lib.cute_cpp_fmha_backward(
            dtype, q.data_ptr(), k.data_ptr(), v.data_ptr(), o.data_ptr(), d_out.data_ptr(), lse.data_ptr(),
            dq.data_ptr(), dk.data_ptr(), dv.data_ptr(), None, B, S, k.shape[1], H, k.shape[2], D, 0.0, int(causal),
            int(deterministic), None, None, 0, 0, self.workspace.data_ptr(), self.workspace.numel(),
            torch.cuda.current_stream().cuda_stream, self.message, 1024))


def reference_grads(q, k, v, d_out, causal):
    """fp32 dq, dk, dv of [B, S, H, D] tensors (one kv head's group: K/V repeated to its q heads)."""
    rep = q.shape[2] // k.shape[2]
    leaves = [t.detach().float().requires_grad_(True) for t in (q, k, v)]
    qf, kf, vf = leaves
    out = F.scaled_dot_product_attention(qf.transpose(1, 2), kf.repeat_interleave(rep, 2).transpose(1, 2),
                                         vf.repeat_interleave(rep, 2).transpose(1, 2), is_causal=causal)
    out.transpose(1, 2).backward(d_out.float())
    return [t.grad for t in leaves]


def cudnn_forward(q, k, v, causal):
    with sdpa_kernel([SDPBackend.CUDNN_ATTENTION]):
        return F.scaled_dot_product_attention(q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2),
                                              is_causal=causal).transpose(1, 2)


def against_fa4(flash, shape, q, k, v, d_out, causal, flops_fwd, ours_backward, ours_both, records):
    """FlashAttention-4's backward and forward+backward beside ours on one case: timed alternately,
    records of their own; a case FA4 refuses is said, not fatal."""
    qf, kf, vf = (t.detach().clone().requires_grad_(True) for t in (q, k, v))
    try:
        out = flash(qf, kf, vf, causal)
        torch.autograd.grad(out, (qf, kf, vf), d_out, retain_graph=True)
    except Exception as e:  # noqa: BLE001 -- FA4's refusal of a case on this GPU
        print(f"backward {shape:28s} FlashAttention-4 refused: {type(e).__name__}: {str(e)[:120]}", flush=True)
        return

    def theirs_both():
        torch.autograd.grad(flash(qf, kf, vf, causal), (qf, kf, vf), d_out)

    for what, flops, mine, theirs in (
            ("backward", 2.5 * flops_fwd, ours_backward,
             lambda: torch.autograd.grad(out, (qf, kf, vf), d_out, retain_graph=True)),
            ("forward+backward", 3.5 * flops_fwd, ours_both, theirs_both)):
        t_ours, t_ref = time_pair(mine, theirs)
        ours, ref_tf = flops / t_ours / 1e9, flops / t_ref / 1e9
        print(f"{what:16s} {shape:28s}  ours {ours:6.1f}  FA4 {ref_tf:6.1f} TFLOP/s  ratio {ours / ref_tf:.3f}",
              flush=True)
        records.append(dict(kernel="fmha_backward_sm90", shape=f"attention {what} {shape}", dtype="bf16", ours=ours,
                            reference=f"{flash.name} (autograd)", reference_value=ref_tf, unit="TFLOP/s",
                            ratio=ours / ref_tf, microseconds=t_ours * 1e3))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", required=True)
    ap.add_argument("--json")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--lib", help="another build of libcute_cpp_fmha.so (default: the build's)")
    ap.add_argument("--only", help="run the configurations whose name contains this")
    ap.add_argument("--fa4", choices=("auto", "off"), default="auto",
                    help="time FlashAttention-4 too where scripts/fa4-install put it (auto), or not")
    opts = ap.parse_args()
    fmha = FmhaBackward(opts.lib or Path(opts.build) / "kernels/libcute_cpp_fmha.so")
    flash, why = fa4.load() if opts.fa4 == "auto" else (None, "--fa4 off")
    print(f"FlashAttention-4: {flash.name if flash else 'absent, ' + why}", flush=True)
    torch.manual_seed(int.from_bytes(__import__("os").urandom(4), "little"))
    dt = torch.bfloat16
    configs = [  # (B, H, Hkv, S, D, causal)
        (4, 32, 32, 4096, 128, False), (4, 32, 32, 4096, 128, True),
        (4, 32, 32, 4096, 64, False), (4, 32, 32, 4096, 64, True),
        (4, 32, 8, 4096, 128, False), (4, 32, 8, 4096, 128, True),
        (16, 32, 32, 1024, 128, False), (16, 32, 32, 1024, 128, True),
    ]
    if opts.quick:
        configs = configs[:2]
    records, ok = [], True
    for B, H, Hkv, S, D, causal in configs:
        shape = f"B{B} H{H}" + (f"/{Hkv}" if Hkv != H else "") + f" S{S} D{D}" + (" causal" if causal else "")
        if opts.only and opts.only not in shape:
            continue
        q = torch.empty(B, S, H, D, device="cuda", dtype=dt).uniform_(-1, 1)
        k = torch.empty(B, S, Hkv, D, device="cuda", dtype=dt).uniform_(-1, 1)
        v = torch.empty(B, S, Hkv, D, device="cuda", dtype=dt).uniform_(-1, 1)
        d_out = torch.empty(B, S, H, D, device="cuda", dtype=dt).uniform_(-1, 1)
        o = torch.empty(B, S, H, D, device="cuda", dtype=dt)
        lse = torch.empty(B, H, S, device="cuda", dtype=torch.float32)
        dq, dk, dv = (torch.full_like(t, float("nan")) for t in (q, k, v))
        fmha.forward(q, k, v, o, lse, causal)
        fmha.backward(d_out, q, k, v, o, lse, dq, dk, dv, causal)
        # cuDNN on K/V expanded to every q head (outside the timing), as a caller without GQA does.
        rep = H // Hkv
        qc, kc, vc = (t.detach().clone().requires_grad_(True)
                      for t in (q, k.repeat_interleave(rep, 2), v.repeat_interleave(rep, 2)))
        oc = cudnn_forward(qc, kc, vc, causal)
        theirs = torch.autograd.grad(oc, (qc, kc, vc), d_out, retain_graph=True)
        # The check: the first sequence, kv head 0 and its q heads, against fp32.
        ref = reference_grads(q[:1, :, :rep], k[:1, :, :1], v[:1, :, :1], d_out[:1, :, :rep], causal)
        mine = (dq[:1, :, :rep], dk[:1, :, :1], dv[:1, :, :1])
        cudnn = (theirs[0][:1, :, :rep], theirs[1][:1, :, :rep].sum(2, keepdim=True),
                 theirs[2][:1, :, :rep].sum(2, keepdim=True))
        errs = [(m.float() - r).abs().max().item() for m, r in zip(mine, ref)]
        errs_cudnn = [(c.float() - r).abs().max().item() for c, r in zip(cudnn, ref)]
        good = all(math.isfinite(e) and e <= max(2 * ec, 1e-2 * r.abs().max().item())
                   for e, ec, r in zip(errs, errs_cudnn, ref))
        ok &= good
        del ref, theirs
        flops_fwd = 4.0 * B * H * S * S * D / (2 if causal else 1)
        flops = 2.5 * flops_fwd
        t_ours, t_ref = time_pair(lambda: fmha.backward(d_out, q, k, v, o, lse, dq, dk, dv, causal),
                                  lambda: torch.autograd.grad(oc, (qc, kc, vc), d_out, retain_graph=True))
        ours, ref_tf = flops / t_ours / 1e9, flops / t_ref / 1e9
        errs_text = " ".join(f"{n} {e:.1e}/{ec:.1e}" for n, e, ec in zip(("dq", "dk", "dv"), errs, errs_cudnn))
        print(f"backward {shape:28s} {'ok ' if good else 'BAD'} max err ours/cuDNN {errs_text}  ours {ours:6.1f}  "
              f"cuDNN {ref_tf:6.1f} TFLOP/s  ratio {ours / ref_tf:.3f}", flush=True)
        reference_name = "cuDNN SDPA backward (PyTorch autograd)" + (
            " on K/V expanded to every q head" if Hkv != H else "")
        records.append(dict(kernel="fmha_backward_sm90", shape=f"attention backward {shape}", dtype="bf16",
                            ours=ours, reference=reference_name, reference_value=ref_tf, unit="TFLOP/s",
                            ratio=ours / ref_tf, microseconds=t_ours * 1e3))

        def ours_both():
            fmha.forward(q, k, v, o, lse, causal)
            fmha.backward(d_out, q, k, v, o, lse, dq, dk, dv, causal)

        def theirs_both():
            out = cudnn_forward(qc, kc, vc, causal)
            torch.autograd.grad(out, (qc, kc, vc), d_out)

        t_ours, t_ref = time_pair(ours_both, theirs_both)
        ours, ref_tf = (flops + flops_fwd) / t_ours / 1e9, (flops + flops_fwd) / t_ref / 1e9
        print(f"fwd+bwd  {shape:28s}  ours {ours:6.1f}  cuDNN {ref_tf:6.1f} TFLOP/s  ratio {ours / ref_tf:.3f}",
              flush=True)
        records.append(dict(kernel="fmha_backward_sm90", shape=f"attention forward+backward {shape}", dtype="bf16",
                            ours=ours, reference=reference_name.replace("backward", "forward + backward"),
                            reference_value=ref_tf, unit="TFLOP/s", ratio=ours / ref_tf,
                            microseconds=t_ours * 1e3))
        if flash:
            against_fa4(flash, shape, q, k, v, d_out, causal, flops_fwd,
                        lambda: fmha.backward(d_out, q, k, v, o, lse, dq, dk, dv, causal), ours_both, records)
    if opts.json:
        Path(opts.json).write_text(json.dumps(records, indent=1) + "\n")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
