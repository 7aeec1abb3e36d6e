# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: 2026 cute-cpp authors
"""cute-cpp's kernels on framework arrays (torch, CuPy, JAX, anything with ``__dlpack__``).

Each op runs on the caller's current stream (torch's or CuPy's) and returns an array of the
caller's framework; pass ``out=`` to write into an existing one (which is then returned). Arguments are checked before
anything is allocated or launched; a violation raises ``ValueError`` whose text starts with
``cute-cpp [rule]:``, the rule of docs/verification.md. The ops record no autograd graph (a tensor
that requires grad is read like any other); torch tensors are read directly, other arrays through
DLPack.

    >>> import torch, cute_cpp.ops as ops
    >>> x = torch.randn(37, 4096, device="cuda", dtype=torch.bfloat16)
    >>> w = torch.randn(11008, 4096, device="cuda", dtype=torch.bfloat16)
    >>> y = ops.linear(x, w)          # x @ w.T, as torch.nn.functional.linear
"""
try:
    from . import _ops
except ImportError as e:  # built only with the CUDA kernels (the CMake build, CUTE_CPP_BUILD_PYTHON)
    raise ImportError("cute_cpp.ops needs the extension cute_cpp._ops, which is built with the kernels where nvcc "
                      "is found (pip install ., or the CMake build with -DCUTE_CPP_BUILD_PYTHON=ON); this "
                      f"installation has cute_cpp.layout only ({e})") from e

__all__ = ["linear", "gemm", "scaled_mm", "rmsnorm", "attention", "attention_backward", "softmax", "swiglu", "reduce",
           "add", "moe", "pack_gate_up", "ssd_prefill", "ssm_state_update", "decode_attention",
           "kv_append"]


_FRAMEWORK_OF_TYPE = {}  # type(x) -> "torch", "cupy", "jax" or "dlpack"


def _torch_stream(x):
    """The raw cudaStream_t of torch's current stream on x's device. torch._C._cuda_getCurrentRawStream
    returns it without building a torch.cuda.Stream (what torch.cuda.current_stream does, a few
    microseconds a call); Triton's launcher calls the same. The public route where it is missing."""
    import torch
    if not x.is_cuda:
        return 0
    raw = getattr(torch._C, "_cuda_getCurrentRawStream", None)
    return raw(x.device.index) if raw is not None else torch.cuda.current_stream(x.device).cuda_stream


def _framework(x):
    """The framework whose arrays the op returns, and the stream it runs on (0: the default)."""
    framework = _FRAMEWORK_OF_TYPE.get(type(x))
    if framework is None:
        module = type(x).__module__.split(".")[0]
        framework = {"torch": "torch", "cupy": "cupy", "jax": "jax", "jaxlib": "jax"}.get(module, "dlpack")
        _FRAMEWORK_OF_TYPE[type(x)] = framework
    if framework == "torch":
        return framework, _torch_stream(x)
    if framework == "cupy":
        import cupy
        return framework, cupy.cuda.get_current_stream().ptr
    return framework, 0


def linear(x, w, *, out=None):
    """``x @ w.T`` for x (M, K) and w (N, K) in bfloat16 (an ``nn.Linear`` weight), fp32 accumulation.

    The tile comes from the GEMM's heuristic (kernels/gemm); rows of x, w and out must be
    contiguous and 16-byte aligned."""
    framework, stream = _framework(x)
    result = _ops.linear(x, w, out, framework, stream)
    return result if out is None else out


def gemm(a, b, *, bias=None, activation=None, alpha=1.0, beta=0.0, out=None):
    """``act(alpha * a @ b + beta * out + bias)`` in one kernel (the GEMM's fused epilogue): a (M, K)
    and b (K, N) in bfloat16, b the transpose of an (N, K) weight with contiguous rows (``w.T``);
    ``bias`` float32 (N,); ``activation`` None, ``"relu"``, ``"gelu"`` (the tanh form, as
    ``F.gelu(approximate="tanh")``) or ``"silu"``; ``beta != 0`` needs ``out``, whose values it adds."""
    framework, stream = _framework(a)
    result = _ops.gemm(a, b, bias, "none" if activation is None else str(activation), float(alpha), float(beta),
                       out, framework, stream)
    return result if out is None else out


def scaled_mm(a, b, scale_a, scale_b, *, bias=None, use_fast_accum=None, out=None):
    """``(a * scale_a) @ (b * scale_b)`` in bfloat16 for FP8 operands, as ``torch._scaled_mm``: a (M, K)
    ``float8_e4m3fn`` or ``float8_e5m2`` with contiguous rows, b (K, N) ``float8_e4m3fn``, the transpose of
    an (N, K) weight with contiguous rows (``w.T``); fp32 accumulation. The scales (float32) pick the
    scaling: one element each (per tensor); (M, 1) and (1, N) (rowwise); or (M, ceil(K/128)) and
    (ceil(N/128), ceil(K/128)) (DeepSeek-V3's 1x128 and 128x128 blocks, e4m3 a only, any strides:
    each 128 of K promoted into the accumulator with its scales). ``bias`` float32 (N,), not with
    blocks. K a multiple of 16. ``use_fast_accum``: True keeps the products in the tensor cores'
    accumulator throughout, False adds each 128 of K into an fp32 accumulator (two-level, more
    accurate at long K); None (the default) is True per tensor and rowwise (where torch._scaled_mm
    defaults to False) and the blocks' only form, two-level."""
    framework, stream = _framework(a)
    result = _ops.scaled_mm(a, b, scale_a, scale_b, bias, use_fast_accum, out, framework, stream)
    return result if out is None else out


def grouped_mm(a, b, offs, *, swiglu=False, validate=False, out=None):
    """Per group g, ``a[rows of g] @ b[g]`` in bfloat16, as ``torch._grouped_mm(a, b, offs=offs)`` (MoE
    experts in one launch): a (M, K) with contiguous rows holds every group's rows, group g's ending at
    ``offs[g]`` (int32, (G,)); b (G, K, N) K-major, each ``b[g]`` the transpose of an (N, K) weight with
    contiguous rows (``w.transpose(-2, -1)`` of a (G, N, K) weight); fp32 accumulation. With ``swiglu``,
    each ``b[g]`` interleaves blocks of 8 gate and 8 up columns and the result (M, N/2) is
    ``silu(gate) * up`` (the experts' fused gate-up projection). Rows past ``offs[-1]`` are not written.
    The offsets are read on the GPU: with ``validate`` the call waits for it and raises ValueError
    naming the rule if they decrease or pass M; without it, wrong offsets leave the result unwritten."""
    framework, stream = _framework(a)
    result = _ops.grouped_mm(a, b, offs, bool(swiglu), bool(validate), out, framework, stream)
    return result if out is None else out


def rmsnorm(x, w, eps=1e-6, *, residual=None, out=None, residual_out=None):
    """``x / sqrt(mean(x**2) + eps) * w`` over the rows of a contiguous (rows, width) x.

    With ``residual``, normalises ``x + residual`` and writes that sum to ``residual_out`` (a
    transformer block's fused residual add). bfloat16, float16 or float32."""
    framework, stream = _framework(x)
    result = _ops.rmsnorm(x, w, float(eps), residual, out, residual_out, framework, stream)
    return result if out is None else out


def attention(q, k, v, *, causal=False, scale=None, window=(-1, -1), out=None, return_lse=False):
    """``softmax(scale * q @ k.T + mask) @ v`` for q (batch, seq_q, heads, d) and k, v (batch,
    seq_k, kv_heads, d / d_v), FlashAttention's layout; kv_heads divides heads (GQA).

    ``scale`` defaults to 1/sqrt(d); ``causal`` aligns the diagonal bottom-right when seq_q !=
    seq_k; ``window`` = (left, right) keys around it (-1: unbounded). bfloat16 or float16, head dims
    64, 128, 256 (and 192 with d_v 128). Any strides whose last is 1. With ``return_lse``, returns
    ``(out, lse)``: lse float32 (batch, heads, seq_q), ``logsumexp(scale * q @ k.T + mask)`` per row
    (-inf for a row that sees no key), what ``attention_backward`` takes."""
    framework, stream = _framework(q)
    result = _ops.attention(q, k, v, bool(causal), 0.0 if scale is None else float(scale), int(window[0]),
                            int(window[1]), out, bool(return_lse), framework, stream)
    if return_lse:
        return (result[0] if out is None else out), result[1]
    return result if out is None else out


def attention_backward(d_out, q, k, v, out, lse, *, causal=False, scale=None, deterministic=False):
    """``(dq, dk, dv)``, the gradients of ``attention(q, k, v, causal=causal, scale=scale)`` given the
    output's gradient ``d_out``, the output ``out`` and its ``lse`` (``attention(..., return_lse=True)``).

    q, out, d_out (batch, seq_q, heads, d); k, v (batch, seq_k, kv_heads, d): one head dim, 64 or
    128; bfloat16 or float16, any strides whose last is 1 (rows of out and d_out 16-byte aligned).
    dk and dv are summed over the heads that share a kv head (GQA). ``deterministic`` adds dq's
    float partial sums in a fixed order, so two runs give the same bits. No sliding window."""
    framework, stream = _framework(q)
    return tuple(_ops.attention_backward(d_out, q, k, v, out, lse, bool(causal),
                                         0.0 if scale is None else float(scale), bool(deterministic), framework,
                                         stream))


def softmax(x, *, out=None):
    """``softmax(x)`` over the last dimension of a contiguous x (fp32 inside); bfloat16, float16 or float32."""
    framework, stream = _framework(x)
    result = _ops.softmax(x, out, framework, stream)
    return result if out is None else out


def swiglu(x, *, out=None):
    """``silu(x[..., :H]) * x[..., H:]`` for a contiguous x whose last dimension is 2H (gate, then up):
    the SwiGLU of an FFN whose gate and up projections are one GEMM. bfloat16, float16 or float32."""
    framework, stream = _framework(x)
    result = _ops.swiglu(x, out, framework, stream)
    return result if out is None else out


def reduce(x, op="sum", *, out=None):
    """The sum (``op="sum"``) or maximum (``op="max"``) over the last dimension of a contiguous x, as
    float32 of x's shape without its last dimension. bfloat16, float16 or float32 in."""
    framework, stream = _framework(x)
    result = _ops.reduce(x, str(op), out, framework, stream)
    return result if out is None else out


def add(a, b, *, out=None):
    """``a + b`` for contiguous arrays of one shape and dtype (computed in fp32); bfloat16, float16 or float32."""
    framework, stream = _framework(a)
    result = _ops.add(a, b, out, framework, stream)
    return result if out is None else out


def moe(x, router, experts_up, down, top_k, *, routing="softmax", activation="swiglu", renormalize=True,
        routed_scaling=1.0, groups=1, top_groups=1, correction_bias=None, shared_up=None, shared_down=None, out=None):
    """The mixture-of-experts block of x (tokens, hidden), bfloat16: each token's ``top_k`` experts by the
    router's logits ``x @ router.T`` (router (experts, hidden)), their FFNs, and the weighted sum.

    ``routing="softmax"`` (Qwen3-MoE, Mixtral): softmax over the logits, the top k, their weights
    renormalized to sum to 1 with ``renormalize`` (``norm_topk_prob``). ``routing="sigmoid"``
    (Nemotron-H, DeepSeek-V3): sigmoid scores plus ``correction_bias`` ((experts,) float32, or None)
    choose the experts within the ``top_groups`` best of ``groups`` groups; the weights are the
    scores (renormalized with ``renormalize``) times ``routed_scaling``. ``activation="swiglu"``:
    experts_up (experts, 2 ffn, hidden) with gate and up rows interleaved in blocks of 8
    (``pack_gate_up``); ``"relu2"``: experts_up (experts, ffn, hidden), ``relu(x up.T)**2``. down
    (experts, hidden, ffn). A shared expert (sigmoid routing): shared_up ((2) shared_ffn, hidden) and
    shared_down (hidden, shared_ffn), added to every token. Every weight contiguous, as nn.Linear
    stores it. Nothing is read back to the host: a CUDA graph can hold the call."""
    framework, stream = _framework(x)
    result = _ops.moe(x, router, experts_up, down, int(top_k), bool(renormalize), str(routing), str(activation),
                      float(routed_scaling), int(groups), int(top_groups), correction_bias, shared_up, shared_down,
                      out, framework, stream)
    return result if out is None else out


def pack_gate_up(gate, up, *, out=None):
    """Gate and up weights (experts, ffn, hidden) (or (ffn, hidden) each), bfloat16 contiguous, as one
    (experts, 2 ffn, hidden) weight whose gate and up rows alternate in blocks of 8: what ``moe``'s
    SwiGLU experts (and the fused FFN) read."""
    framework, stream = _framework(gate)
    result = _ops.pack_gate_up(gate, up, out, framework, stream)
    return result if out is None else out


def ssd_prefill(x, dt, A_log, B, C, D, dt_bias, *, cu_seqlens=None, initial_states=None, final_states=None,
                state_slots=None, dt_limit=(0.0, float("inf")), out=None):
    """Mamba-2's SSD chunked scan over a varlen batch, as ``mamba_chunk_scan_combined(..., dt_softplus=True,
    dt_bias=dt_bias, D=D, return_final_states=True)``: returns ``(y, final_states)``.

    x (tokens, heads, head_dim), dt (tokens, heads) raw, B and C (tokens, groups, state), bfloat16,
    each token's row contiguous (any token stride; B's and C's the same); A_log, D, dt_bias float32
    (heads,): dt = clamp(softplus(dt + dt_bias), *dt_limit), A = -exp(A_log). ``cu_seqlens`` int32
    (sequences + 1,) offsets of each sequence in the tokens (None: one sequence; torch only).
    States float32 (slots, heads, head_dim, state): sequence s starts from
    ``initial_states[state_slots[s]]`` (None: zeros; state_slots None: slot s) and ends in
    ``final_states[...]`` (None: a new (sequences, heads, head_dim, state), without state_slots);
    they may be one array.
    Built for Mamba-2's head_dim 64 and state 128 (chunk 128)."""
    framework, stream = _framework(x)
    if cu_seqlens is None:
        if framework != "torch":
            raise ValueError("cute-cpp [ops.shape]: cu_seqlens is required for arrays other than torch's")
        import torch
        cu_seqlens = torch.tensor([0, x.shape[0]], dtype=torch.int32, device=x.device)
    y, finals = _ops.ssd_prefill(x, dt, A_log, B, C, D, dt_bias, cu_seqlens, initial_states, final_states,
                                 state_slots, float(dt_limit[0]), float(dt_limit[1]), out, framework, stream)
    return (y if out is None else out), (finals if final_states is None else final_states)


def ssm_state_update(states, x, dt, A_log, B, C, D, dt_bias, *, state_slots=None, dt_limit=(0.0, float("inf")),
                     out=None):
    """One decode step of Mamba-2's scan per row, as ``selective_state_update(..., dt_softplus=True)``:
    ``states`` float32 (slots, heads, head_dim, state) updated in place, row r in slot
    ``state_slots[r]`` (int32 (rows,); None: slot r; negative: a padding row, whose state and y are
    left unwritten); returns y
    (rows, heads, head_dim) bfloat16. x (rows, heads, head_dim), dt (rows, heads), B and C (rows,
    groups, state) bfloat16; A_log, D, dt_bias float32 (heads,), as ``ssd_prefill``."""
    framework, stream = _framework(x)
    result = _ops.ssm_state_update(x, dt, A_log, B, C, D, dt_bias, states, state_slots, float(dt_limit[0]),
                                   float(dt_limit[1]), out, framework, stream)
    return result if out is None else out


def decode_attention(q, k_cache, v_cache, cache_seqlens, *, block_table=None, k_scale=None, v_scale=None,
                     max_seqlen=None, causal=True, scale=None, num_splits=0, out=None, return_lse=False):
    """A serving step's attention: q (batch, q_tokens, heads, d), 1 to 8 new tokens a sequence, against
    a KV cache that already holds them (flash-decoding: the keys split across CTAs where the batch is
    small). Paged: k_cache and v_cache (pages, page_size, kv_heads, d / d_v) with ``block_table``
    int32 (batch, max_pages_per_seq); contiguous (``block_table=None``): (batch, seq, kv_heads, d).
    ``cache_seqlens`` int32 (batch,): each sequence's keys, the new tokens counted; with ``causal``,
    query token t sees the keys up to its own position. ``max_seqlen`` (paged caches): the longest of
    them, if the caller knows it (the splits are planned for it, and a longer sequence would be cut
    short; default the cache's capacity, which a contiguous cache always uses). kv_heads divides
    heads (GQA); bfloat16 or float16; head dims 64, 128, 256 and MLA's 576 / 512. A float8_e4m3fn
    cache holds K / k_scale and V / v_scale (``k_scale``, ``v_scale`` float32 (kv_heads,), None for 1;
    ``kv_append`` writes it so). With ``return_lse``, ``(out, lse)``: lse float32 (batch, q_tokens, heads)."""
    framework, stream = _framework(q)
    result = _ops.decode_attention(q, k_cache, v_cache, cache_seqlens, block_table, k_scale, v_scale,
                                   0 if max_seqlen is None else int(max_seqlen), bool(causal),
                                   0.0 if scale is None else float(scale), int(num_splits), out, bool(return_lse),
                                   framework, stream)
    if return_lse:
        return (result[0] if out is None else out), result[1]
    return result if out is None else out


def kv_append(k_new, v_new, k_cache, v_cache, cache_seqlens, *, block_table=None, k_scale=None, v_scale=None):
    """Writes a step's new keys and values into the KV cache ``decode_attention`` reads: k_new and v_new
    (batch, q_tokens, kv_heads, d / d_v) go to positions ``cache_seqlens[b] - q_tokens + t`` of sequence
    b (``cache_seqlens`` int32 (batch,): the lengths after the append). Paged: k_cache and v_cache
    (pages, page_size, kv_heads, d) with ``block_table`` int32 (batch, max_pages_per_seq); contiguous:
    (batch, seq, kv_heads, d). bfloat16 or float16, the cache in the new tokens' type, or float8_e4m3fn
    with ``k_scale`` and ``v_scale`` (float32 (kv_heads,)): K / k_scale and V / v_scale rounded to nearest
    and saturated. A slot outside its sequence's pages is skipped. Returns None (written in place)."""
    _, stream = _framework(k_new)
    _ops.kv_append(k_new, v_new, k_cache, v_cache, cache_seqlens, block_table, k_scale, v_scale, stream)
