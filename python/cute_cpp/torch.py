# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: 2026 cute-cpp authors
"""cute_cpp.ops registered with ``torch.library``, so that ``torch.compile(fullgraph=True)`` traces
through them and ``torch.library.opcheck`` passes: each op has a schema, its CUDA implementation
(cute_cpp.ops on the current stream) and a fake implementation that gives the output's shape and
dtype without running anything. Attention has gradients: ``attention_forward`` (output and LSE)
with ``attention_backward`` as its autograd (``torch.compile`` traces both), and ``attention``
differentiable too, its backward recomputing the LSE with a forward pass.

    >>> import cute_cpp.torch  # registers torch.ops.cute_cpp.*
    >>> y = torch.ops.cute_cpp.linear(x, w)
    >>> o, lse = torch.ops.cute_cpp.attention_forward(q, k, v, True)   # o.sum().backward() works
"""
from typing import Optional, Tuple

import torch

from . import ops

__all__ = ["linear", "gemm", "scaled_mm", "grouped_mm", "rmsnorm", "fused_add_rmsnorm", "attention",
           "attention_forward", "attention_backward", "softmax", "swiglu", "reduce_sum", "reduce_max", "add"]


@torch.library.custom_op("cute_cpp::linear", mutates_args=(), device_types="cuda")
def linear(x: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    """x @ w.T (bf16; x (M, K), w (N, K))."""
    return ops.linear(x, w)


@linear.register_fake
def _(x, w):
    return x.new_empty((x.shape[0], w.shape[0]))


@torch.library.custom_op("cute_cpp::gemm", mutates_args=(), device_types="cuda")
def gemm(a: torch.Tensor, b: torch.Tensor, bias: Optional[torch.Tensor] = None, activation: Optional[str] = None,
         alpha: float = 1.0, beta: float = 0.0, c: Optional[torch.Tensor] = None) -> torch.Tensor:
    """act(alpha * a @ b + beta * c + bias): cute_cpp.ops.gemm, with c the addend (copied, not written)."""
    out = c.clone() if c is not None and beta != 0.0 else None
    return ops.gemm(a, b, bias=bias, activation=activation, alpha=alpha, beta=beta if out is not None else 0.0,
                    out=out)


@gemm.register_fake
def _(a, b, bias=None, activation=None, alpha=1.0, beta=0.0, c=None):
    return a.new_empty((a.shape[0], b.shape[1]))


@torch.library.custom_op("cute_cpp::scaled_mm", mutates_args=(), device_types="cuda")
def scaled_mm(a: torch.Tensor, b: torch.Tensor, scale_a: torch.Tensor, scale_b: torch.Tensor,
              bias: Optional[torch.Tensor] = None, use_fast_accum: Optional[bool] = None) -> torch.Tensor:
    """(a * scale_a) @ (b * scale_b) of FP8 operands, bf16 out: cute_cpp.ops.scaled_mm."""
    return ops.scaled_mm(a, b, scale_a, scale_b, bias=bias, use_fast_accum=use_fast_accum)


@scaled_mm.register_fake
def _(a, b, scale_a, scale_b, bias=None, use_fast_accum=None):
    return a.new_empty((a.shape[0], b.shape[1]), dtype=torch.bfloat16)


@torch.library.custom_op("cute_cpp::grouped_mm", mutates_args=(), device_types="cuda")
def grouped_mm(a: torch.Tensor, b: torch.Tensor, offs: torch.Tensor, swiglu: bool = False) -> torch.Tensor:
    """a[rows of group g] @ b[g] per group (bf16, torch._grouped_mm's offs): cute_cpp.ops.grouped_mm.
    Rows past offs[-1] are zero here (a custom op's result is fully defined)."""
    out = a.new_zeros((a.shape[0], b.shape[2] // 2 if swiglu else b.shape[2]))
    return ops.grouped_mm(a, b, offs, swiglu=swiglu, out=out)


@grouped_mm.register_fake
def _(a, b, offs, swiglu=False):
    return a.new_empty((a.shape[0], b.shape[2] // 2 if swiglu else b.shape[2]))


@torch.library.custom_op("cute_cpp::rmsnorm", mutates_args=(), device_types="cuda")
def rmsnorm(x: torch.Tensor, w: torch.Tensor, eps: float) -> torch.Tensor:
    """x / sqrt(mean(x**2) + eps) * w over the rows of a contiguous (rows, width) x."""
    return ops.rmsnorm(x, w, eps)


@rmsnorm.register_fake
def _(x, w, eps):
    return torch.empty_like(x)


@torch.library.custom_op("cute_cpp::fused_add_rmsnorm", mutates_args=(), device_types="cuda")
def fused_add_rmsnorm(x: torch.Tensor, residual: torch.Tensor, w: torch.Tensor,
                      eps: float) -> Tuple[torch.Tensor, torch.Tensor]:
    """(rmsnorm(x + residual) * w, x + residual): a transformer block's residual add and norm."""
    y, s = torch.empty_like(x), torch.empty_like(x)
    ops.rmsnorm(x, w, eps, residual=residual, out=y, residual_out=s)
    return y, s


@fused_add_rmsnorm.register_fake
def _(x, residual, w, eps):
    return torch.empty_like(x), torch.empty_like(x)


@torch.library.custom_op("cute_cpp::attention", mutates_args=(), device_types="cuda")
def attention(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, causal: bool = False,
              scale: Optional[float] = None) -> torch.Tensor:
    """softmax(scale q k^T + mask) v for (batch, seq, heads, head_dim) tensors, GQA."""
    return ops.attention(q, k, v, causal=causal, scale=scale)


@attention.register_fake
def _(q, k, v, causal=False, scale=None):
    return q.new_empty((q.shape[0], q.shape[1], q.shape[2], v.shape[3]))


@torch.library.custom_op("cute_cpp::attention_forward", mutates_args=(), device_types="cuda")
def attention_forward(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, causal: bool = False,
                      scale: Optional[float] = None) -> Tuple[torch.Tensor, torch.Tensor]:
    """(out, lse): attention and the log-sum-exp of each row's scores, float32 (batch, heads, seq_q),
    which its backward (attention_backward) reads. The LSE has no gradient of its own."""
    return ops.attention(q, k, v, causal=causal, scale=scale, return_lse=True)


@attention_forward.register_fake
def _(q, k, v, causal=False, scale=None):
    return (q.new_empty((q.shape[0], q.shape[1], q.shape[2], v.shape[3])),
            q.new_empty((q.shape[0], q.shape[2], q.shape[1]), dtype=torch.float32))


@torch.library.custom_op("cute_cpp::attention_backward", mutates_args=(), device_types="cuda")
def attention_backward(d_out: torch.Tensor, q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, out: torch.Tensor,
                       lse: torch.Tensor, causal: bool = False, scale: Optional[float] = None,
                       deterministic: bool = False) -> Tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """(dq, dk, dv) of attention_forward: cute_cpp.ops.attention_backward (d_out made contiguous
    first: autograd may hand over an expanded gradient)."""
    return ops.attention_backward(d_out.contiguous(), q, k, v, out, lse, causal=causal, scale=scale,
                                  deterministic=deterministic)


@attention_backward.register_fake
def _(d_out, q, k, v, out, lse, causal=False, scale=None, deterministic=False):
    return q.new_empty(q.shape), k.new_empty(k.shape), v.new_empty(v.shape)


def _attention_forward_setup(ctx, inputs, output):
    q, k, v, causal, scale = (list(inputs) + [False, None])[:5]
    ctx.save_for_backward(q, k, v, output[0], output[1])
    ctx.causal, ctx.scale = causal, scale


def _attention_forward_grad(ctx, d_out, d_lse):
    # torch.use_deterministic_algorithms(True) asks for dq's sums in a fixed order.
    q, k, v, out, lse = ctx.saved_tensors
    dq, dk, dv = attention_backward(d_out, q, k, v, out, lse, ctx.causal, ctx.scale,
                                    torch.are_deterministic_algorithms_enabled())
    return dq, dk, dv, None, None


attention_forward.register_autograd(_attention_forward_grad, setup_context=_attention_forward_setup)


def _attention_setup(ctx, inputs, output):
    q, k, v, causal, scale = (list(inputs) + [False, None])[:5]
    ctx.save_for_backward(q, k, v, output)
    ctx.causal, ctx.scale = causal, scale


def _attention_grad(ctx, d_out):
    # NOTE: this op returns no LSE, so its backward runs the forward again for it (attention_forward
    # keeps the LSE and saves that pass).
    q, k, v, out = ctx.saved_tensors
    _, lse = attention_forward(q, k, v, ctx.causal, ctx.scale)
    dq, dk, dv = attention_backward(d_out, q, k, v, out, lse, ctx.causal, ctx.scale,
                                    torch.are_deterministic_algorithms_enabled())
    return dq, dk, dv, None, None


attention.register_autograd(_attention_grad, setup_context=_attention_setup)


@torch.library.custom_op("cute_cpp::softmax", mutates_args=(), device_types="cuda")
def softmax(x: torch.Tensor) -> torch.Tensor:
    """softmax over the last dimension of a contiguous x."""
    return ops.softmax(x)


@softmax.register_fake
def _(x):
    return torch.empty_like(x)


@torch.library.custom_op("cute_cpp::swiglu", mutates_args=(), device_types="cuda")
def swiglu(x: torch.Tensor) -> torch.Tensor:
    """silu(x[..., :H]) * x[..., H:] for a contiguous x of last dimension 2H."""
    return ops.swiglu(x)


@swiglu.register_fake
def _(x):
    return x.new_empty((*x.shape[:-1], x.shape[-1] // 2))


@torch.library.custom_op("cute_cpp::reduce_sum", mutates_args=(), device_types="cuda")
def reduce_sum(x: torch.Tensor) -> torch.Tensor:
    """The sum over the last dimension, float32."""
    return ops.reduce(x, "sum")


@reduce_sum.register_fake
def _(x):
    return x.new_empty(x.shape[:-1], dtype=torch.float32)


@torch.library.custom_op("cute_cpp::reduce_max", mutates_args=(), device_types="cuda")
def reduce_max(x: torch.Tensor) -> torch.Tensor:
    """The maximum over the last dimension, float32."""
    return ops.reduce(x, "max")


@reduce_max.register_fake
def _(x):
    return x.new_empty(x.shape[:-1], dtype=torch.float32)


@torch.library.custom_op("cute_cpp::add", mutates_args=(), device_types="cuda")
def add(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    """a + b for contiguous tensors of one shape and dtype."""
    return ops.add(a, b)


@add.register_fake
def _(a, b):
    return torch.empty_like(a)
