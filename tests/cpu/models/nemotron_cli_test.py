#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""cute-cpp-nemotron's errors that come before any GPU work: the command line, the config (what the GPU
decoder supports of it) and the prompts are checked before the weights load, so each case exits 2 with its
rule on this machine (no GPU). The ones that need the model on the device are in
models/nemotron/check_nemotron.py.

    nemotron_cli_test.py PROGRAM
"""
import json
import subprocess
import sys
import tempfile
from pathlib import Path

# A toy with every layer kind at widths the kernels take (Mamba-2 heads of 64, state 128, conv 4).
CONFIG = {
    "architectures": ["NemotronHForCausalLM"], "model_type": "nemotron_h", "hidden_size": 256, "vocab_size": 1000,
    "hybrid_override_pattern": "M*E-", "num_hidden_layers": 4, "max_position_embeddings": 64,
    "layer_norm_epsilon": 1e-5, "tie_word_embeddings": False, "torch_dtype": "bfloat16", "eos_token_id": 2,
    "num_attention_heads": 4, "num_key_value_heads": 2, "head_dim": 64,
    "mamba_num_heads": 8, "mamba_head_dim": 64, "ssm_state_size": 128, "n_groups": 2, "conv_kernel": 4,
    "chunk_size": 128, "expand": 2, "mamba_hidden_act": "silu", "use_conv_bias": True,
    "time_step_min": 0.001, "time_step_max": 0.1, "time_step_floor": 1e-4,
    "n_routed_experts": 8, "num_experts_per_tok": 2, "moe_intermediate_size": 64,
    "moe_shared_expert_intermediate_size": 128, "n_shared_experts": 1, "norm_topk_prob": True,
    "routed_scaling_factor": 2.5, "n_group": 1, "topk_group": 1, "intermediate_size": 192, "mlp_hidden_act": "relu2",
}


def folder(root, name, **changes):
    path = root / name
    path.mkdir()
    (path / "config.json").write_text(json.dumps(dict(CONFIG, **changes)))
    return str(path)


def main():
    program = sys.argv[1]
    root = Path(tempfile.mkdtemp(prefix="nemotron-cli-"))
    toy = folder(root, "toy")
    float32 = folder(root, "f32", torch_dtype="float32")
    head_dim32 = folder(root, "p32", mamba_head_dim=32)
    heads12 = folder(root, "h12", mamba_num_heads=12)
    attention96 = folder(root, "a96", head_dim=96)
    experts6 = folder(root, "e6", n_routed_experts=6)
    bad_pattern = folder(root, "pattern", hybrid_override_pattern="M*X-")
    out = str(root / "x")
    cases = [
        # (arguments, rule expected on stderr's first line, text expected in it)
        ([], "nemotron.usage", "no command"),
        (["serve"], "nemotron.usage", 'unknown command "serve"'),
        (["logits", "--ids", "1", "--out", out], "nemotron.usage", "--model is required"),
        (["generate", "--model", toy], "nemotron.usage", "generate needs --ids or --prompt"),
        (["generate", "--model", toy, "--prompt", "hi"], "nemotron.usage", "needs a tokenizer.json"),
        (["generate", "--model", toy, "--ids", "1,x"], "nemotron.usage", '"x" is not a 32-bit integer'),
        (["generate", "--model", toy, "--ids", "1", "--top-k", "2.5"], "nemotron.usage", "--top-k takes an integer"),
        (["logits", "--model", toy, "--ids", "1,2", "--out", out, "--split", "1", "--decode-from", "1"],
         "nemotron.usage", "--split and --decode-from exclude each other"),
        (["logits", "--model", toy, "--ids", "1,2;3", "--out", out, "--split", "1"], "nemotron.usage",
         "must leave tokens on both sides of every prompt"),
        (["logits", "--model", toy, "--ids", "1", "--out", out, "--random-weights", "7"], "nemotron.usage",
         "--random-weights is accepted by bench only"),
        (["bench", "--model", toy, "--batches", "0"], "nemotron.usage", "positive batch sizes"),
        (["generate", "--model", toy, "--ids", "1,1000", "--max-new-tokens", "4"], "nemotron.input",
         "prompt 0: id 1000 at position 1 is outside [0, 1000)"),
        (["generate", "--model", toy, "--ids", "1;-3", "--max-new-tokens", "4"], "nemotron.input", "prompt 1: id -3"),
        (["generate", "--model", toy, "--ids", "1;", "--max-new-tokens", "4"], "nemotron.input", "prompt 1 is empty"),
        (["generate", "--model", toy, "--ids", ",".join(["5"] * 40), "--max-new-tokens", "30"], "nemotron.input",
         "40 tokens and 30 new ones exceed the sequence limit 64"),
        (["logits", "--model", toy, "--ids", ",".join(["5"] * 65), "--out", out], "nemotron.input",
         "65 tokens and 0 new ones exceed the sequence limit 64"),
        # What the GPU decoder does not run: refused when the model is made, before any weight is read.
        (["logits", "--model", float32, "--ids", "1", "--out", out], "nemotron.dtype", 'torch_dtype is "float32"'),
        (["logits", "--model", head_dim32, "--ids", "1", "--out", out], "nemotron.mamba", "mamba_head_dim 32"),
        (["logits", "--model", heads12, "--ids", "1", "--out", out], "nemotron.mamba", "mamba_num_heads 12"),
        (["logits", "--model", attention96, "--ids", "1", "--out", out], "nemotron.attention", "head_dim 96"),
        (["logits", "--model", experts6, "--ids", "1", "--out", out], "nemotron.moe", "n_routed_experts 6"),
        (["logits", "--model", toy, "--ids", "1", "--out", out, "--max-seq", "65"], "nemotron.options",
         "max_seq 65 (max_position_embeddings 64)"),
        (["logits", "--model", bad_pattern, "--ids", "1", "--out", out], "config.value",
         "\"hybrid_override_pattern\" has \"X\" at layer 2"),
        # Valid everything reaches the checkpoint, which this folder does not have.
        (["logits", "--model", toy, "--ids", "1,2,3", "--out", out], "checkpoint.folder", ""),
    ]
    failed = 0
    for args, rule, text in cases:
        done = subprocess.run([program, *args], capture_output=True, text=True, timeout=60)
        first = done.stderr.strip().splitlines()[0] if done.stderr.strip() else ""
        ok = done.returncode == 2 and first.startswith(f"cute-cpp [{rule}]: ") and text in first
        if not ok:
            failed += 1
            print(f"FAIL {args}: exit {done.returncode}, stderr {first!r}; expected [{rule}] with {text!r}")
    print(f"{len(cases) - failed} of {len(cases)} cases pass")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
