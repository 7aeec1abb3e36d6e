#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Prints the expected values of tests/cpu/models/rope_test.cpp: RoPE's inverse frequencies and cos/sin
scale for YaRN, computed with numpy from the formula of transformers 5's _compute_yarn_parameters, written
out here step by step (not imported: no torch or transformers needed), every tensor step in float32 as
torch rounds it; theta^(2i/d) is rounded to float32 from float64 (glibc's powf gives the same values).

    python3 tests/cpu/models/rope_reference.py      (needs numpy; scripts/setup installs it in .tools/py)"""
import math
import textwrap

import numpy as np

f32 = np.float32

# (name, head_dim, rope_theta, max_position_embeddings, the rope_scaling fields)
CASES = [
    # Qwen's 131072-token setting added to the published Qwen3-8B config (shared/models/qwen3-8b.json)
    ("kQwen3_8b", 128, 1e6, 40960, {"factor": 4.0, "original_max_position_embeddings": 32768}),
    # mscale over mscale_all_dim, other betas, the correction range not truncated
    ("kMscaleUntruncated", 64, 1e4, 4096, {"factor": 8.0, "original_max_position_embeddings": 2048, "mscale": 0.707,
                                           "mscale_all_dim": 1.0, "beta_fast": 16, "beta_slow": 2, "truncate": False}),
    # check_qwen3.py's tiny-yarn checkpoint: the range starts at pair 0
    ("kTinyYarn", 64, 1e6, 1024, {"factor": 4.0, "original_max_position_embeddings": 256}),
    # beta_fast == beta_slow untruncated: low == high, the ramp a step (high + 0.001)
    ("kEqualBetas", 64, 1e6, 4096, {"factor": 2.0, "beta_fast": 8, "beta_slow": 8, "truncate": False}),
]


def get_mscale(scale, mscale=1.0):
    return 1.0 if scale <= 1 else 0.1 * mscale * math.log(scale) + 1.0


def yarn(dim, theta, max_positions, p):
    factor = p["factor"]  # transformers 5: as written; max_positions / original only when it is None
    original = p.get("original_max_position_embeddings", max_positions)
    if factor is None:
        factor = max_positions / original
    attention = p.get("attention_factor")
    if attention is None:
        if p.get("mscale") and p.get("mscale_all_dim"):
            attention = get_mscale(factor, p["mscale"]) / get_mscale(factor, p["mscale_all_dim"])
        else:
            attention = get_mscale(factor)
    beta_fast, beta_slow = p.get("beta_fast") or 32, p.get("beta_slow") or 1

    def pair(turns):  # the pair index that turns `turns` times over the original context
        return dim * math.log(original / (turns * 2 * math.pi)) / (2 * math.log(theta))

    low, high = pair(beta_fast), pair(beta_slow)
    if p.get("truncate", True):
        low, high = math.floor(low), math.ceil(high)
    low, high = max(low, 0), min(high, dim - 1)
    if low == high:
        high += 0.001
    i = np.arange(dim // 2, dtype=f32)
    ramp = np.clip((i - f32(low)) / f32(high - low), f32(0), f32(1)).astype(f32)
    e = (f32(1) - ramp).astype(f32)
    exponent = (np.arange(0, dim, 2).astype(f32) / f32(dim)).astype(f32)
    pos = np.array([f32(float(f32(theta)) ** float(x)) for x in exponent], dtype=f32)
    extrapolation = (f32(1) / pos).astype(f32)
    interpolation = (f32(1) / (f32(factor) * pos)).astype(f32)
    inv_freq = ((interpolation * (f32(1) - e)).astype(f32) + (extrapolation * e).astype(f32)).astype(f32)
    return inv_freq, f32(attention), low, high


def literal(v):
    """A C++ float literal that reads back as the float32 v."""
    text = f"{v:.9g}"
    return text + ("f" if "." in text or "e" in text else ".0f")


def main():
    for name, dim, theta, max_positions, p in CASES:
        inv_freq, scale, low, high = yarn(dim, theta, max_positions, p)
        fields = ", ".join(f"{k} {v}" for k, v in p.items())
        print(f"// {name}: head_dim {dim}, theta {theta:g}, max_position_embeddings {max_positions};")
        for line in textwrap.wrap(fields + ":", 100):
            print(f"//   {line}")
        print(f"//   correction range [{low:.6g}, {high:.6g}], cos/sin scale {scale:.9g}")
        values = [literal(v) for v in inv_freq]
        print(f"constexpr float {name}[{len(values)}] = {{")
        for k in range(0, len(values), 6):
            print("    " + ", ".join(values[k:k + 6]) + ",")
        print("};")


if __name__ == "__main__":
    main()
