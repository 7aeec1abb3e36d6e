#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: 2026 cute-cpp authors
"""Times cute-cpp's Mamba-2 SSD chunked scan and selective state update (libcute_cpp_ssm.so, through
its C entry points) against mamba_ssm's Triton kernels (mamba_chunk_scan_combined and
selective_state_update, as Mamba-2 layers call them) in one process, at Nemotron-3 Nano's shapes
(64 heads of 64, 8 groups, state 128, chunk 128), bf16 activations and f32 states. First checks
ours against a float64 scan (varlen sequences whose lengths are not multiples of the chunk, initial
states in shuffled slots; a decode batch with a padding row) and, where the Triton kernels are
there, against them. The Triton kernels come from scripts/mamba-ssm-fetch (bench/support/mamba_triton.py);
without them the script says so and times nothing.

    bench_ssd_triton.py --build BUILD [--json FILE] [--quick]

BUILD holds the C library (BUILD/kernels/libcute_cpp_ssm.so). Records: "ssm ssd prefill" (and
"ssm ssd prefill tensor cores", the scan's chunk products on the tensor cores, where the library has
that entry) and "ssm state update" (tokens/s, ours against the Triton kernels')."""
import argparse
import ctypes
import json
import math
import os
import sys
from pathlib import Path

import torch
import torch.nn.functional as F

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "support"))
import mamba_triton  # noqa: E402
from torch_timing import time_pair  # noqa: E402

H, P, G, N, CHUNK = 64, 64, 8, 128, 128  # Nemotron-3 Nano's Mamba-2 layers


class Ssm:
    """The C entry points of libcute_cpp_ssm.so on torch tensors (contiguous rows, the caller's stream)."""

    def __init__(self, path):
        self.lib = ctypes.CDLL(str(path))
        Pt, I, L, Fl, U = ctypes.c_void_p, ctypes.c_int, ctypes.c_longlong, ctypes.c_float, ctypes.c_ulonglong
        msg = [ctypes.c_char_p, ctypes.c_ulong]
        self.lib.cute_cpp_ssd_workspace_bytes.argtypes = [L, I, I, I, I, I, ctypes.POINTER(U)] + msg
        self.lib.cute_cpp_ssd_prefill.argtypes = [Pt, L, Pt, L, Pt, Pt, L, Pt, Pt, Pt, Pt, I, I, I, I, I, I, Pt, Pt,
                                                  Pt, Pt, Fl, Fl, Pt, U, Pt] + msg
        # The scan with its chunk products on the tensor cores, where the library has it.
        self.tensor_cores = hasattr(self.lib, "cute_cpp_ssd_prefill_tensor_cores")
        if self.tensor_cores:
            self.lib.cute_cpp_ssd_prefill_tensor_cores.argtypes = self.lib.cute_cpp_ssd_prefill.argtypes
        self.lib.cute_cpp_ssm_state_update.argtypes = [Pt, L, Pt, L, Pt, Pt, L, Pt, Pt, Pt, Pt, Pt, Pt, I, I, I, I, I,
                                                       Fl, Fl, Pt] + msg
        self.message = ctypes.create_string_buffer(1024)
        self.workspace = None

    def _status(self, rc):
        if rc != 0:
            raise RuntimeError(self.message.value.decode())

    def prefill(self, w, x, dt, b, c, y, cu, initial, final, slots, tensor_cores=False):
        """y (T, H, P) and final[slots] from x (T, H, P), dt (T, H), B and C (T, G, N); the chunk
        products on the tensor cores or the CUDA cores."""
        bytes_ = ctypes.c_ulonglong(0)
        total, seqs = x.shape[0], cu.numel() - 1
        self._status(self.lib.cute_cpp_ssd_workspace_bytes(total, seqs, H, G, P, N, ctypes.byref(bytes_),
                                                           self.message, 1024))
        if self.workspace is None or self.workspace.numel() < bytes_.value:
            self.workspace = torch.empty(max(bytes_.value, 256), dtype=torch.uint8, device="cuda")
        ptr = lambda t: None if t is None else t.data_ptr()
        entry = self.lib.cute_cpp_ssd_prefill_tensor_cores if tensor_cores else self.lib.cute_cpp_ssd_prefill
        self._status(entry(
            x.data_ptr(), H * P, dt.data_ptr(), H, b.data_ptr(), c.data_ptr(), G * N, w["dt_bias"].data_ptr(),
            w["A_log"].data_ptr(), w["D"].data_ptr(), y.data_ptr(), H, G, P, N, total, seqs, cu.data_ptr(),
            ptr(initial), final.data_ptr(), ptr(slots), 0.0, math.inf, self.workspace.data_ptr(),
            self.workspace.numel(), torch.cuda.current_stream().cuda_stream, self.message, 1024))

    def update(self, w, x, dt, b, c, states, slots, y):
        """One token a row: states[slot] updated in place, y (batch, H, P)."""
        ptr = lambda t: None if t is None else t.data_ptr()
        self._status(self.lib.cute_cpp_ssm_state_update(
            x.data_ptr(), H * P, dt.data_ptr(), H, b.data_ptr(), c.data_ptr(), G * N, w["dt_bias"].data_ptr(),
            w["A_log"].data_ptr(), w["D"].data_ptr(), states.data_ptr(), ptr(slots), y.data_ptr(), H, G, P, N,
            x.shape[0], 0.0, math.inf, torch.cuda.current_stream().cuda_stream, self.message, 1024))


def layer_weights():
    """A Mamba-2 layer's per-head parameters, drawn as Mamba-2 initialises them (dt in [1e-3, 0.1])."""
    dt0 = torch.exp(torch.rand(H, device="cuda") * (math.log(0.1) - math.log(1e-3)) + math.log(1e-3))
    return {"dt_bias": dt0 + torch.log(-torch.expm1(-dt0)), "A_log": torch.log(torch.rand(H, device="cuda") * 15 + 1),
            "D": torch.rand(H, device="cuda") + 0.5}


def tokens(count):
    """x (T, H, P), raw dt (T, H), B and C (T, G, N), bf16."""
    draw = lambda *shape, scale=1.0: (torch.randn(*shape, device="cuda") * scale).to(torch.bfloat16)
    return draw(count, H, P), draw(count, H, scale=0.5), draw(count, G, N, scale=0.5), draw(count, G, N, scale=0.5)


def reference_step(w, state, x, dt, b, c):
    """One token of the scan in float64: state (rows, H, P, N) updated, y (rows, H, P) returned."""
    d = F.softplus(dt.double() + w["dt_bias"].double())  # (rows, H); torch's threshold 20, as ours
    a = -torch.exp(w["A_log"].double())
    heads_b = b.double().repeat_interleave(H // G, dim=1)  # (rows, H, N)
    heads_c = c.double().repeat_interleave(H // G, dim=1)
    decay = torch.exp(d * a)[:, :, None, None]
    state.mul_(decay).add_(d[:, :, None, None] * x.double()[..., None] * heads_b[:, :, None, :])
    return torch.einsum("rhpn,rhn->rhp", state, heads_c) + w["D"].double()[None, :, None] * x.double()


def close(got, want, scale, tol):
    """Elements of got off want by more than tol x scale, and the worst error over scale."""
    err = (got.double() - want).abs()
    err = torch.where(torch.isnan(got.double()), torch.full_like(err, math.inf), err)
    return int((err > tol * scale).sum()), float(err.max()) / scale


def check_prefill(ssm, w, tensor_cores=False):
    """Two sequences of 200 and 77 tokens, their initial states in slots 1 and 0 of 3, against float64."""
    name = "ssd prefill (tensor cores)" if tensor_cores else "ssd prefill"
    lengths, slots = [200, 77], [1, 0]
    x, dt, b, c = tokens(sum(lengths))
    cu = torch.tensor([0, 200, 277], dtype=torch.int32, device="cuda")
    initial = torch.randn(3, H, P, N, device="cuda") * 0.1
    final = torch.full_like(initial, math.nan)
    y = torch.full_like(x, math.nan)
    ssm.prefill(w, x, dt, b, c, y, cu, initial, final, torch.tensor(slots, dtype=torch.int32, device="cuda"),
                tensor_cores)
    want_y = torch.empty(x.shape, dtype=torch.float64, device="cuda")
    ok = True
    for s, (lo, slot) in enumerate(zip([0, 200], slots)):
        state = initial[slot:slot + 1].double().clone()
        for t in range(lo, lo + lengths[s]):
            want_y[t] = reference_step(w, state, x[t:t + 1], dt[t:t + 1], b[t:t + 1], c[t:t + 1])[0]
        bad, worst = close(final[slot:slot + 1], state, float(state.abs().max()), 1e-3)
        print(f"check {name} final state, sequence {s} (slot {slot}): {'ok' if bad == 0 else 'FAILED'} "
              f"(worst {worst:.2e} of max |state|)", flush=True)
        ok &= bad == 0
    bad, worst = close(y, want_y, float(want_y.abs().max()), 2e-2)
    print(f"check {name} y, 277 tokens in 2 sequences: {'ok' if bad == 0 else 'FAILED'} ({bad} off, worst "
          f"{worst:.2e} of max |y|)", flush=True)
    untouched = bool(torch.isnan(final[2]).all())
    print(f"check {name} leaves the unused slot alone: {'ok' if untouched else 'FAILED'}", flush=True)
    return ok and bad == 0 and untouched


def check_update(ssm, w):
    """A decode batch of 5 rows in slots 3, padding, 0, 4, 1 of 6, against float64."""
    slots = [3, -1, 0, 4, 1]
    x, dt, b, c = tokens(len(slots))
    states = torch.randn(6, H, P, N, device="cuda") * 0.1
    before = states.double().clone()
    y = torch.full_like(x, math.nan)
    ssm.update(w, x, dt, b, c, states, torch.tensor(slots, dtype=torch.int32, device="cuda"), y)
    ok = True
    for r, slot in enumerate(slots):
        if slot < 0:
            row_ok = bool(torch.isnan(y[r]).all())
        else:
            want = before[slot:slot + 1].clone()
            want_y = reference_step(w, want, x[r:r + 1], dt[r:r + 1], b[r:r + 1], c[r:r + 1])
            row_ok = close(y[r:r + 1], want_y, float(want_y.abs().max()), 2e-2)[0] == 0
            row_ok &= close(states[slot:slot + 1], want, float(want.abs().max()), 1e-4)[0] == 0
        ok &= row_ok
    others_ok = bool(torch.equal(states[2], before[2].float()) and torch.equal(states[5], before[5].float()))
    print(f"check ssm state update, 5 rows (one padding) in 6 slots: {'ok' if ok and others_ok else 'FAILED'}",
          flush=True)
    return ok and others_ok


def triton_scan(mamba, w, x, dt, b, c, batch):
    """mamba_chunk_scan_combined on `batch` equal sequences of packed tokens: (y, final states)."""
    view = lambda t: t.view(batch, t.shape[0] // batch, *t.shape[1:])
    return mamba.chunk_scan(view(x), view(dt), -torch.exp(w["A_log"]), view(b), view(c), CHUNK, D=w["D"],
                            dt_bias=w["dt_bias"], dt_softplus=True, return_final_states=True)


def triton_update(mamba, w, x, dt, b, c, states):
    """selective_state_update as Mamba-2 calls it (per-head A, dt, D and dt_bias broadcast over P and N)."""
    a = (-torch.exp(w["A_log"]))[:, None, None].expand(H, P, N)
    return mamba.state_update(states, x, dt[:, :, None].expand(-1, -1, P), a, b, c, D=w["D"][:, None].expand(H, P),
                              dt_bias=w["dt_bias"][:, None].expand(H, P), dt_softplus=True)


def check_against_triton(ssm, mamba, w):
    """Ours and the Triton scan on 2 sequences of 256: y and the final states agree."""
    batch, length = 2, 256
    x, dt, b, c = tokens(batch * length)
    cu = torch.arange(0, batch * length + 1, length, dtype=torch.int32, device="cuda")
    y = torch.full_like(x, math.nan)
    final = torch.empty(batch, H, P, N, device="cuda")
    ssm.prefill(w, x, dt, b, c, y, cu, None, final, None)
    ty, tfinal = triton_scan(mamba, w, x, dt, b, c, batch)
    ty = ty.reshape(x.shape)
    bad_y, worst_y = close(y, ty.double(), float(ty.abs().max()), 2e-2)
    bad_s, worst_s = close(final, tfinal.double(), float(tfinal.abs().max()), 1e-2)
    ok = bad_y == 0 and bad_s == 0
    print(f"check ssd prefill against {mamba.name}: {'ok' if ok else 'FAILED'} (worst y {worst_y:.2e}, state "
          f"{worst_s:.2e} of their max)", flush=True)
    return ok


def record(kernel, shape, reference, tokens_per_call, ours_ms, ref_ms, records):
    """A record of tokens/s, ours against the reference's, and its line."""
    print(f"{kernel} {shape}: ours {ours_ms * 1e3:8.1f} us, {reference} {ref_ms * 1e3:8.1f} us, "
          f"ratio {ref_ms / ours_ms:.3f}", flush=True)
    records.append(dict(kernel=kernel, shape=shape, dtype="bf16", ours=tokens_per_call / ours_ms * 1e3,
                        reference=reference, reference_value=tokens_per_call / ref_ms * 1e3, unit="tok/s",
                        ratio=ref_ms / ours_ms, microseconds=ours_ms * 1e3))


def bench_prefill(ssm, mamba, w, batch, length, records, tensor_cores=False):
    x, dt, b, c = tokens(batch * length)
    cu = torch.arange(0, batch * length + 1, length, dtype=torch.int32, device="cuda")
    y = torch.empty_like(x)
    final = torch.empty(batch, H, P, N, device="cuda")
    ours_ms, ref_ms = time_pair(lambda: ssm.prefill(w, x, dt, b, c, y, cu, None, final, None, tensor_cores),
                                lambda: triton_scan(mamba, w, x, dt, b, c, batch))
    record("ssm ssd prefill tensor cores" if tensor_cores else "ssm ssd prefill",
           f"{batch} x {length} tokens (H{H} P{P} G{G} N{N}, chunk {CHUNK})",
           f"{mamba.name} mamba_chunk_scan_combined", batch * length, ours_ms, ref_ms, records)


def bench_update(ssm, mamba, w, batch, records):
    x, dt, b, c = tokens(batch)
    ours_states = torch.randn(batch, H, P, N, device="cuda") * 0.1
    their_states = ours_states.clone()
    y = torch.empty_like(x)
    ours_ms, ref_ms = time_pair(lambda: ssm.update(w, x, dt, b, c, ours_states, None, y),
                                lambda: triton_update(mamba, w, x, dt, b, c, their_states))
    record("ssm state update", f"batch {batch} (H{H} P{P} G{G} N{N}, f32 states)",
           f"{mamba.name} selective_state_update", batch, ours_ms, ref_ms, records)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", required=True)
    ap.add_argument("--json")
    ap.add_argument("--quick", action="store_true")
    opts = ap.parse_args()
    ssm = Ssm(Path(opts.build) / "kernels/libcute_cpp_ssm.so")
    mamba, why = mamba_triton.load()
    print(f"mamba_ssm Triton: {mamba.name if mamba else 'absent, ' + why}", flush=True)
    torch.manual_seed(int.from_bytes(os.urandom(4), "little"))
    torch.set_grad_enabled(False)  # the Triton scan is an autograd Function: called as inference calls it
    w = layer_weights()
    products = (False, True) if ssm.tensor_cores else (False,)
    ok = check_update(ssm, w)
    for tensor_cores in products:
        ok &= check_prefill(ssm, w, tensor_cores)
    records = []
    if mamba is not None:
        ok &= check_against_triton(ssm, mamba, w)
        for batch, length in ((1, 2048),) if opts.quick else ((1, 2048), (4, 2048), (1, 16384), (16, 512)):
            for tensor_cores in products:
                bench_prefill(ssm, mamba, w, batch, length, records, tensor_cores)
        for batch in (1,) if opts.quick else (1, 8, 32, 128):
            bench_update(ssm, mamba, w, batch, records)
    if opts.json:
        Path(opts.json).write_text(json.dumps(records, indent=1) + "\n")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
