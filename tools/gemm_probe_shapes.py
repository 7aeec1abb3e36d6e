#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The shapes scripts/gpu-check's GEMM candidate parts time (issue 43; kernels/gemm/README.md): the
probe and the narrow probe, fixed, which the dispatch's rules were read from, and the unseen probe,
drawn afresh from a seed, which judges those rules on shapes nobody chose.

The unseen probe's projections are every linear layer of the published configs in shared/models
(attention's qkv and o, the MLP's or each expert's projections, Mamba-2's in and out projections, the
LM head), its rows log-uniform in 65-2600 (batched decode to chunked prefill: where the rules act, to
1280, and past them, where 128 x 256 tiles still run at 0.88 of cuBLAS) and none of the fixed probes'
rows. Standard library only.

    tools/gemm_probe_shapes.py [SEED]      the unseen probe's shapes for SEED (default: today, UTC)"""
import datetime
import json
import math
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MODELS = ROOT / "shared/models"

# The probe: rows across the 128-row tiles' saw, by projections of Llama-3 8B / 70B, Qwen3-4B and
# DeepSeek-V3 and an LM head; about 170 s on an H100.
PROBE_ROWS = (3, 8, 20, 40, 56, 70, 98, 123, 138, 154, 194, 217, 272, 305, 341, 428, 537, 601, 845, 1060)
PROBE_NK = ("128256x4096", "4096x4096", "14336x4096", "4096x14336", "6144x4096", "8192x28672", "2560x4096",
            "36864x7168")
# The narrow probe: projections of at most 2048 columns (Qwen3-0.6B's o and down, Qwen3-1.7B's o,
# Qwen3-30B-A3B's expert gate-up and down, DeepSeek-V3's kv_a), the model-shape sweep's worst at
# 721b0a1 (0.44-0.55 of cuBLAS at 194-673 rows), where 128 x 256 tiles give a tile row 3-8 CTAs.
NARROW_ROWS = (70, 98, 138, 194, 272, 341, 428, 537, 673, 1060)
NARROW_NK = ("1024x2048", "1024x3072", "2048x2048", "1536x2048", "2048x768", "576x7168")
# The unseen probe's size: about 130 s on an H100 (about 1 s a shape with every tile and cut).
UNSEEN_ROWS = 14
UNSEEN_PROJECTIONS = 8
UNSEEN_RANGE = (65, 2600)


def config_projections(config):
    """{(N, K)} of one config's linear layers, as x W^T takes them (N: the weight's rows)."""
    hidden, head_dim = config["hidden_size"], config.get("head_dim")
    heads, kv_heads = config["num_attention_heads"], config["num_key_value_heads"]
    head_dim = head_dim or hidden // heads
    out = {((heads + 2 * kv_heads) * head_dim, hidden), (hidden, heads * head_dim), (config["vocab_size"], hidden)}
    hybrid = "hybrid_override_pattern" in config  # Nemotron-H: squared-ReLU MLPs (no gate), Mamba-2 mixers
    widths = [config.get("intermediate_size"), config.get("moe_intermediate_size"),
              config.get("moe_shared_expert_intermediate_size")]
    for width in filter(None, widths):
        out |= {((1 if hybrid else 2) * width, hidden), (hidden, width)}
    if hybrid:
        inner = config["mamba_num_heads"] * config["mamba_head_dim"]
        groups_state = 2 * config["n_groups"] * config["ssm_state_size"]
        out |= {(2 * inner + groups_state + config["mamba_num_heads"], hidden), (hidden, inner)}
    return out


def model_projections(models=MODELS):
    """Every published config's projections (config_projections), as "NxK" strings, sorted."""
    shapes = set()
    for path in sorted(Path(models).glob("*.json")):
        shapes |= config_projections(json.loads(path.read_text()))
    return sorted(f"{n}x{k}" for n, k in shapes)


def default_seed():
    """Today's date (UTC) as YYYYMMDD: each day's run draws new shapes, and the log names them."""
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y%m%d")


def unseen_shapes(seed, models=MODELS, rows=UNSEEN_ROWS, projections=UNSEEN_PROJECTIONS):
    """(rows, "NxK" projections) of the unseen probe for `seed`: `projections` of model_projections
    and `rows` distinct row counts log-uniform in UNSEEN_RANGE, none a fixed probe's."""
    rng = random.Random(str(seed))
    nks = model_projections(models)
    picked = sorted(rng.sample(nks, min(projections, len(nks))))
    taken, ms = set(PROBE_ROWS) | set(NARROW_ROWS), set()
    low, high = (math.log(v) for v in UNSEEN_RANGE)
    while len(ms) < rows:
        m = round(math.exp(rng.uniform(low, high)))
        if m not in taken:
            ms.add(m)
    return tuple(sorted(ms)), tuple(picked)


def main(argv):
    seed = argv[1] if len(argv) > 1 else default_seed()
    rows, nks = unseen_shapes(seed)
    print(f"seed {seed}: rows {' '.join(map(str, rows))}; N x K {' '.join(nks)}")


if __name__ == "__main__":
    main(sys.argv)
