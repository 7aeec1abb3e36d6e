# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: 2026 cute-cpp authors
"""gpu_ops_check.py's checks of cute_cpp.ops' serving ops against torch references in float32 /
float64 (run from its main with its `check`): decode attention against a paged and a contiguous
cache (GQA, one and three new tokens, lengths that are not whole pages) and the KV append into
both; the MoE block under softmax routing with SwiGLU experts and under sigmoid routing with
squared-ReLU experts and a shared expert, each at a decode step's few tokens and at a prefill's
many; pack_gate_up against its definition; the SSD scan over two sequences (lengths not multiples
of the chunk, initial states in shuffled slots) and the state update (a padding row) against a
float64 scan."""
import math

import torch
import torch.nn.functional as F

H, P, G, N = 64, 64, 8, 128  # the built state-space plan's heads of 64 and state 128 (Mamba-2's)


def _moe_reference(x, router, up, down, top_k, routing, renormalize, scaling, bias, shared):
    """y in float32, and the tokens whose k-th and (k+1)-th choices are too close to call (skipped)."""
    xf = x.float()
    if routing == "softmax":
        logits = (xf @ router.float().T).to(torch.bfloat16).float()  # the router GEMM writes bf16 logits
        scores = torch.softmax(logits, dim=-1)
        choice_scores = scores
    else:
        logits = xf @ router.float().T  # f32 logits for the sigmoid router
        scores = torch.sigmoid(logits)
        choice_scores = scores + (bias if bias is not None else 0.0)
    top = torch.topk(choice_scores, top_k + 1, dim=-1)
    near = (top.values[:, top_k - 1] - top.values[:, top_k]).abs() < 1e-3
    ids = top.indices[:, :top_k]
    weights = scores.gather(1, ids)
    if renormalize:
        weights = weights / (weights.sum(-1, keepdim=True) + (1e-20 if routing == "sigmoid" else 0.0))
    weights = weights * scaling
    gated = up.shape[1] == 2 * down.shape[2]

    def ffn(rows, w_up, w_down, dense=False):
        a = (rows @ w_up.float().T)
        if gated:  # gate and up rows interleaved in blocks of 8
            a = a.view(a.shape[0], -1, 2, 8)
            h = F.silu(a[:, :, 0].reshape(a.shape[0], -1)) * a[:, :, 1].reshape(a.shape[0], -1)
        else:  # the routed experts square the f32 sum; the dense shared expert its bf16 product
            h = torch.relu(a.to(torch.bfloat16).float() if dense else a) ** 2
        return h.to(torch.bfloat16).float() @ w_down.float().T

    y = torch.zeros_like(xf)
    for t in range(x.shape[0]):
        for j in range(top_k):
            e = int(ids[t, j])
            y[t] += weights[t, j] * ffn(xf[t:t + 1], up[e], down[e])[0]
    if shared is not None:  # the shared expert's rows are stored in bf16 before they are added
        y += ffn(xf, shared[0], shared[1], dense=not gated).to(torch.bfloat16).float()
    return y, near


def _moe_case(ops, check, close, name, tokens, routing, activation, shared_ffn, g):
    bf, E, hidden, ffn, k = torch.bfloat16, 16, 256, 128, 4
    rnd = lambda *s, scale: (torch.randn(*s, device="cuda", generator=g) * scale).to(bf)
    x = rnd(tokens, hidden, scale=1.0)
    router = rnd(E, hidden, scale=0.1)
    gated = activation == "swiglu"
    up = rnd(E, 2 * ffn if gated else ffn, hidden, scale=hidden ** -0.5)
    down = rnd(E, hidden, ffn, scale=ffn ** -0.5)
    bias = (torch.randn(E, device="cuda", generator=g) * 0.1) if routing == "sigmoid" else None
    shared = (rnd(shared_ffn, hidden, scale=hidden ** -0.5), rnd(hidden, shared_ffn, scale=shared_ffn ** -0.5)) \
        if shared_ffn else None
    scaling = 2.5 if routing == "sigmoid" else 1.0
    out = torch.full((tokens, hidden), float("nan"), device="cuda", dtype=bf)
    ops.moe(x, router, up, down, k, routing=routing, activation=activation, routed_scaling=scaling,
            correction_bias=bias, shared_up=shared[0] if shared else None, shared_down=shared[1] if shared else None,
            out=out)
    want, near = _moe_reference(x, router, up, down, k, routing, True, scaling, bias, shared)
    rows = ~near
    bad, worst = close(out[rows], want[rows], 2e-2, 2e-2 * float(want.abs().max()))
    check(f"moe {name} T={tokens}", bad == 0 and not torch.isnan(out[rows]).any(),
          f"({bad} bad, max err {worst:.3g}; {int(near.sum())} near-tied tokens skipped)")


def moe_checks(ops, check, close):
    g = torch.Generator(device="cuda").manual_seed(11)
    for tokens in (5, 37):  # a decode step's path (<= 8 tokens) and the grouped GEMMs'
        _moe_case(ops, check, close, "softmax SwiGLU (Qwen3-MoE)", tokens, "softmax", "swiglu", 0, g)
        _moe_case(ops, check, close, "sigmoid ReLU^2 + shared expert (Nemotron-H)", tokens, "sigmoid", "relu2", 128, g)
    gate = torch.randn(3, 24, 64, device="cuda", generator=g).to(torch.bfloat16)
    up = torch.randn(3, 24, 64, device="cuda", generator=g).to(torch.bfloat16)
    packed = ops.pack_gate_up(gate, up).view(3, 3, 2, 8, 64)
    ok = torch.equal(packed[:, :, 0], gate.view(3, 3, 8, 64)) and torch.equal(packed[:, :, 1], up.view(3, 3, 8, 64))
    check("pack_gate_up interleaves blocks of 8 rows", ok)
    try:
        ops.moe(gate[0], gate[0], up, up, 2, routing="sigmoid")
        check("moe rejects mismatched weights", False, "(no error)")
    except ValueError as e:
        check("moe rejects mismatched weights", "ops.shape" in str(e), f"({e})")


def _scan_step(w, state, x, dt, b, c):
    """One token of Mamba-2's scan in float64: state (rows, H, P, N) updated, y (rows, H, P) returned."""
    d = F.softplus(dt.double() + w["dt_bias"].double())
    decay = torch.exp(d * -torch.exp(w["A_log"].double()))[:, :, None, None]
    heads_b = b.double().repeat_interleave(H // G, dim=1)
    heads_c = c.double().repeat_interleave(H // G, dim=1)
    state.mul_(decay).add_(d[:, :, None, None] * x.double()[..., None] * heads_b[:, :, None, :])
    return torch.einsum("rhpn,rhn->rhp", state, heads_c) + w["D"].double()[None, :, None] * x.double()


def ssm_checks(ops, check, close):
    g = torch.Generator(device="cuda").manual_seed(13)
    bf = torch.bfloat16
    rnd = lambda *s, scale=1.0: (torch.randn(*s, device="cuda", generator=g) * scale)
    dt0 = torch.exp(torch.rand(H, device="cuda", generator=g) * (math.log(0.1) - math.log(1e-3)) + math.log(1e-3))
    w = {"dt_bias": dt0 + torch.log(-torch.expm1(-dt0)),
         "A_log": torch.log(torch.rand(H, device="cuda", generator=g) * 15 + 1),
         "D": torch.rand(H, device="cuda", generator=g) + 0.5}
    lengths, slots = (150, 61), (2, 0)
    T = sum(lengths)
    x, dt = rnd(T, H, P).to(bf), rnd(T, H, scale=0.5).to(bf)
    b, c = rnd(T, G, N, scale=0.5).to(bf), rnd(T, G, N, scale=0.5).to(bf)
    states = rnd(3, H, P, N, scale=0.1)
    initial = states.double().clone()
    cu = torch.tensor([0, lengths[0], T], dtype=torch.int32, device="cuda")
    y, finals = ops.ssd_prefill(x, dt, w["A_log"], b, c, w["D"], w["dt_bias"], cu_seqlens=cu, initial_states=states,
                                final_states=states, state_slots=torch.tensor(slots, dtype=torch.int32, device="cuda"))
    want = torch.empty(T, H, P, dtype=torch.float64, device="cuda")
    state_bad = 0
    for s, lo in enumerate((0, lengths[0])):
        state = initial[slots[s]:slots[s] + 1].clone()
        for t in range(lo, lo + lengths[s]):
            want[t] = _scan_step(w, state, x[t:t + 1], dt[t:t + 1], b[t:t + 1], c[t:t + 1])[0]
        state_bad += close(finals[slots[s]], state[0], 0.0, 1e-3 * float(state.abs().max()))[0]
    bad, worst = close(y, want, 0.0, 2e-2 * float(want.abs().max()))
    untouched = torch.equal(finals[1].double(), initial[1])
    check("ssd_prefill 2 sequences (150, 61 tokens), states in place in slots 2 and 0",
          bad == 0 and state_bad == 0 and untouched, f"(y: {bad} bad, max err {worst:.3g}; states: {state_bad} bad)")
    rows = (1, -1, 2)
    xs, dts = rnd(3, H, P).to(bf), rnd(3, H, scale=0.5).to(bf)
    bs, cs = rnd(3, G, N, scale=0.5).to(bf), rnd(3, G, N, scale=0.5).to(bf)
    before = states.double().clone()
    ys = ops.ssm_state_update(states, xs, dts, w["A_log"], bs, cs, w["D"], w["dt_bias"],
                              state_slots=torch.tensor(rows, dtype=torch.int32, device="cuda"))
    ok = torch.equal(states[0].double(), before[0])
    for r, slot in enumerate(rows):
        if slot < 0:
            continue
        state = before[slot:slot + 1].clone()
        ref = _scan_step(w, state, xs[r:r + 1], dts[r:r + 1], bs[r:r + 1], cs[r:r + 1])
        ok &= close(ys[r:r + 1], ref, 0.0, 2e-2 * float(ref.abs().max()))[0] == 0
        ok &= close(states[slot:slot + 1], state, 0.0, 1e-4 * float(state.abs().max()))[0] == 0
    check("ssm_state_update 3 rows (one padding) in place", bool(ok))


def decode_checks(ops, check, close):
    g = torch.Generator(device="cuda").manual_seed(17)
    bf, batch, heads, kv_heads, d, page = torch.bfloat16, 3, 8, 2, 128, 64
    lengths = torch.tensor([3, 130, 300], dtype=torch.int32, device="cuda")  # at least the new tokens
    pages_per_seq = 5
    for q_tokens in (1, 3):
        q = torch.randn(batch, q_tokens, heads, d, device="cuda", generator=g).to(bf)
        k = torch.randn(batch, pages_per_seq * page, kv_heads, d, device="cuda", generator=g).to(bf)
        v = torch.randn(batch, pages_per_seq * page, kv_heads, d, device="cuda", generator=g).to(bf)
        want = torch.empty(batch, q_tokens, heads, d, dtype=torch.float64, device="cuda")
        for b in range(batch):
            n = int(lengths[b])
            kk = k[b, :n].double().repeat_interleave(heads // kv_heads, dim=1)  # (n, heads, d)
            vv = v[b, :n].double().repeat_interleave(heads // kv_heads, dim=1)
            s = torch.einsum("thd,nhd->htn", q[b].double(), kk) / math.sqrt(d)
            last = n - q_tokens + torch.arange(q_tokens, device="cuda")  # each new token's own position
            seen = torch.arange(n, device="cuda")[None, :] <= last[:, None]
            s = s.masked_fill(~seen[None], -math.inf)
            want[b] = torch.einsum("htn,nhd->thd", torch.softmax(s, dim=-1).nan_to_num(), vv)
        # Contiguous, then the same keys in shuffled pages of a paged cache.
        out = ops.decode_attention(q, k, v, lengths)
        bad, worst = close(out, want, 2e-2, 2e-2)
        check(f"decode_attention contiguous q_tokens={q_tokens} GQA 8/2", bad == 0, f"({bad} bad, max err {worst:.3g})")
        order = torch.randperm(batch * pages_per_seq, device="cuda", generator=g)
        table = order.view(batch, pages_per_seq).to(torch.int32)
        k_pages = torch.empty(batch * pages_per_seq, page, kv_heads, d, device="cuda", dtype=bf)
        v_pages = torch.empty_like(k_pages)
        k_pages[order] = k.view(batch * pages_per_seq, page, kv_heads, d)
        v_pages[order] = v.view(batch * pages_per_seq, page, kv_heads, d)
        out, lse = ops.decode_attention(q, k_pages, v_pages, lengths, block_table=table, return_lse=True)
        bad, worst = close(out, want, 2e-2, 2e-2)
        check(f"decode_attention paged q_tokens={q_tokens} (pages of {page}, shuffled)", bad == 0 and lse.shape == (
            batch, q_tokens, heads), f"({bad} bad, max err {worst:.3g})")
        # kv_append: the new tokens' K and V into an emptied copy of their slots, paged and contiguous,
        # each slot exactly; the rest of the cache untouched.
        k_new = torch.stack([k[b, int(lengths[b]) - q_tokens:int(lengths[b])] for b in range(batch)])
        v_new = torch.stack([v[b, int(lengths[b]) - q_tokens:int(lengths[b])] for b in range(batch)])
        k_hole, v_hole = k.clone(), v.clone()
        for b in range(batch):
            k_hole[b, int(lengths[b]) - q_tokens:int(lengths[b])] = 0
            v_hole[b, int(lengths[b]) - q_tokens:int(lengths[b])] = 0
        ops.kv_append(k_new, v_new, k_hole, v_hole, lengths)
        contiguous_ok = torch.equal(k_hole, k) and torch.equal(v_hole, v)
        kp_hole, vp_hole = torch.empty_like(k_pages), torch.empty_like(v_pages)
        kp_hole[order] = k_hole.view(batch * pages_per_seq, page, kv_heads, d)
        vp_hole[order] = v_hole.view(batch * pages_per_seq, page, kv_heads, d)
        for b in range(batch):  # empty the slots again, in their pages
            for j in range(int(lengths[b]) - q_tokens, int(lengths[b])):
                kp_hole[table[b, j // page], j % page] = 0
                vp_hole[table[b, j // page], j % page] = 0
        ops.kv_append(k_new, v_new, kp_hole, vp_hole, lengths, block_table=table)
        paged_ok = torch.equal(kp_hole, k_pages) and torch.equal(vp_hole, v_pages)
        check(f"kv_append q_tokens={q_tokens}, contiguous and paged", contiguous_ok and paged_ok)
        _fp8_cache_check(ops, check, close, q, k_pages, v_pages, table, lengths, k_new, v_new)


def _fp8_cache_check(ops, check, close, q, k_pages, v_pages, table, lengths, k_new, v_new):
    """An e4m3 cache (K / k_scale, V / v_scale per kv head): decode against it equals attention over its
    dequantized values, and kv_append writes the new tokens' slots as that quantization does."""
    batch, q_tokens, heads, d = q.shape
    kv_heads, page = k_pages.shape[2], k_pages.shape[1]
    k_scale = (k_pages.float().abs().amax(dim=(0, 1, 3)) / 448).clamp(min=1e-6)
    v_scale = (v_pages.float().abs().amax(dim=(0, 1, 3)) / 448).clamp(min=1e-6)
    quantize = lambda x, s: (x.float() / s[None, None, :, None]).clamp(-448, 448).to(torch.float8_e4m3fn)
    k8, v8 = quantize(k_pages, k_scale), quantize(v_pages, v_scale)
    k_deq = (k8.float() * k_scale[None, None, :, None]).to(torch.float64)
    v_deq = (v8.float() * v_scale[None, None, :, None]).to(torch.float64)
    want = torch.empty(batch, q_tokens, heads, d, dtype=torch.float64, device="cuda")
    for b in range(batch):
        n = int(lengths[b])
        rows = [table[b, j // page] for j in range(n)]
        kk = torch.stack([k_deq[r, j % page] for j, r in enumerate(rows)]).repeat_interleave(heads // kv_heads, dim=1)
        vv = torch.stack([v_deq[r, j % page] for j, r in enumerate(rows)]).repeat_interleave(heads // kv_heads, dim=1)
        s = torch.einsum("thd,nhd->htn", q[b].double(), kk) / math.sqrt(d)
        last = n - q_tokens + torch.arange(q_tokens, device="cuda")
        s = s.masked_fill(~(torch.arange(n, device="cuda")[None, :] <= last[:, None])[None], -math.inf)
        want[b] = torch.einsum("htn,nhd->thd", torch.softmax(s, dim=-1), vv)
    out = ops.decode_attention(q, k8, v8, lengths, block_table=table, k_scale=k_scale, v_scale=v_scale)
    bad, worst = close(out, want, 3e-2, 3e-2)
    check(f"decode_attention e4m3 paged cache q_tokens={q_tokens}", bad == 0, f"({bad} bad, max err {worst:.3g})")
    holes_k, holes_v = k8.clone(), v8.clone()
    for b in range(batch):
        for j in range(int(lengths[b]) - q_tokens, int(lengths[b])):
            holes_k[table[b, j // page], j % page] = 0
            holes_v[table[b, j // page], j % page] = 0
    ops.kv_append(k_new, v_new, holes_k, holes_v, lengths, block_table=table, k_scale=k_scale, v_scale=v_scale)
    # Within one e4m3 rounding of the same quantization (a division or a multiply by its reciprocal).
    ok = all(close(h.float(), w.float(), 2 ** -3, 1e-6)[0] == 0 for h, w in ((holes_k, k8), (holes_v, v8)))
    check(f"kv_append into an e4m3 paged cache q_tokens={q_tokens}", ok)
