# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: 2026 cute-cpp authors
"""FlashAttention-4 (flash-attn-4, on CuTeDSL) as a second attention reference beside cuDNN, where
scripts/fa4-install put it on the lent machine (scripts/fa4-wheels says how its wheels travel).
Benchmarks time it when it is there and say so when it is not."""
import importlib.metadata
import os
import site

FA4_SITE = os.path.join(os.environ.get("CUTE_CPP_FA4_DIR", "/tmp/cute-cpp-fa4"), "site")


class FlashAttention4:
    """FlashAttention-4's forward as its users call it: [B, S, H, D] tensors (K/V with their own head
    count: GQA is native), or packed [total, H, D] with cumulative sequence offsets."""

    def __init__(self, forward, varlen, version):
        self._forward, self._varlen, self.version = forward, varlen, version
        self.name = f"FlashAttention-4 {version}"

    def __call__(self, q, k, v, causal):
        out = self._forward(q, k, v, causal=causal)
        return out[0] if isinstance(out, tuple) else out

    def varlen(self, q, k, v, cu, max_len, causal):
        out = self._varlen(q, k, v, cu_seqlens_q=cu, cu_seqlens_k=cu, max_seqlen_q=max_len, max_seqlen_k=max_len,
                           causal=causal)
        return out[0] if isinstance(out, tuple) else out


def load():
    """(FlashAttention4, None) where it imports, else (None, why not)."""
    if not os.path.isfile(os.path.join(FA4_SITE, ".installed")):
        return None, f"not installed in {FA4_SITE} (scripts/fa4-wheels here, scripts/fa4-install there)"
    # The DSL finds its own packages through a .pth file in the install folder, which only a site
    # directory's processing reads (PYTHONPATH would not).
    site.addsitedir(FA4_SITE)
    try:
        from flash_attn.cute.interface import flash_attn_func, flash_attn_varlen_func
    except Exception as e:  # a broken install is reported, not fatal: cuDNN stays the reference
        return None, f"import failed: {type(e).__name__}: {e}"
    return FlashAttention4(flash_attn_func, flash_attn_varlen_func, importlib.metadata.version("flash-attn-4")), None
