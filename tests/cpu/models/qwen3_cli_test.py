#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""cute-cpp-qwen3's errors that come before any GPU work: the command line, the config and the
prompts are checked before the weights load, so each case exits 2 with its rule on this machine
(no GPU). The ones that need the model on the device are in models/qwen3/check_qwen3.py.
Then bench, logits and generate --random-weights on a folder with config.json alone: no rule is broken,
so the first error (without a GPU) is a CUDA call's, or (with one) the command runs (bench says its
weights are random).
Last, --tensor-parallel 2 on a model it suits (a folder with config.json alone): tp.gpus with fewer than 2
GPUs, else NCCL's tp.nccl (no libnccl) or the checkpoint's error as the ranks load; emulated on one GPU,
tp.gpus without a GPU, else the checkpoint's error.

    qwen3_cli_test.py PROGRAM
"""
import json
import subprocess
import sys
import tempfile
from pathlib import Path

CONFIG = {
    "architectures": ["Qwen3ForCausalLM"], "model_type": "qwen3", "hidden_size": 256, "intermediate_size": 768,
    "num_hidden_layers": 2, "num_attention_heads": 4, "num_key_value_heads": 2, "head_dim": 64,
    "vocab_size": 1000, "max_position_embeddings": 64, "rope_theta": 1000000.0, "rms_norm_eps": 1e-06,
    "hidden_act": "silu", "attention_bias": False, "tie_word_embeddings": True, "torch_dtype": "bfloat16",
    "eos_token_id": 999,
}


def folder(root, name, **changes):
    path = root / name
    path.mkdir()
    (path / "config.json").write_text(json.dumps(dict(CONFIG, **changes)))
    return str(path)


def main():
    program = sys.argv[1]
    root = Path(tempfile.mkdtemp(prefix="qwen3-cli-"))
    qwen3 = folder(root, "qwen3")
    llama = folder(root, "llama", model_type="llama")
    # YaRN stretching 32 positions 4 times: 128 positions where max_position_embeddings says 64.
    yarn = folder(root, "yarn", rope_scaling={"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 32})
    linear = folder(root, "linear", rope_scaling={"rope_type": "linear", "factor": 2.0})
    no_factor = folder(root, "no-factor", rope_scaling={"type": "yarn", "original_max_position_embeddings": 32})
    # --tensor-parallel 4 splits the 4 query heads; each of these breaks one other split rule.
    kv6 = folder(root, "kv6", num_attention_heads=12, num_key_value_heads=6)
    inter = folder(root, "inter", intermediate_size=776)
    vocab = folder(root, "vocab", vocab_size=6, eos_token_id=5)
    moe = folder(root, "moe", architectures=["Qwen3MoeForCausalLM"], model_type="qwen3_moe", num_experts=6,
                 num_experts_per_tok=2, moe_intermediate_size=64)
    # bench's sizes within the config's 64 positions (the defaults' 2048-token prefill is not)
    small_bench = ["--prefill-len", "16", "--ttft-len", "8", "--context", "8", "--steps", "5", "--batches", "1"]
    cases = [
        # (arguments, rule expected on stderr's first line, text expected in it)
        ([], "qwen3.usage", "no command"),
        (["serve"], "qwen3.usage", 'unknown command "serve"'),
        (["generate", "--ids", "1"], "qwen3.usage", "--model is required"),
        (["generate", "--model", qwen3], "qwen3.usage", "generate needs --ids, --prompt or --chat"),
        (["generate", "--model", qwen3, "--prompt", "hi"], "qwen3.usage", "need a tokenizer.json"),
        (["generate", "--model", qwen3, "--ids", "1,x"], "qwen3.usage", '"x" is not a 32-bit integer'),
        (["generate", "--model", qwen3, "--ids", "1", "--top-k", "2.5"], "qwen3.usage", '--top-k takes an integer'),
        (["generate", "--model", qwen3, "--ids", "1", "--max-new-tokens"], "qwen3.usage", "needs a value"),
        (["generate", "--model", qwen3, "--ids", "1,1000"], "qwen3.input", "id 1000 at position 1 is outside [0, 1000)"),
        (["generate", "--model", qwen3, "--ids", "1;-3", "--max-new-tokens", "4"], "qwen3.input", "prompt 1: id -3"),
        (["generate", "--model", qwen3, "--ids", "1;", "--max-new-tokens", "4"], "qwen3.input", "prompt 1 is empty"),
        (["generate", "--model", qwen3, "--ids", ",".join(["5"] * 40), "--max-new-tokens", "30"], "qwen3.input",
         "40 tokens and 30 new ones exceed the sequence limit 64"),
        (["generate", "--model", qwen3, "--ids", "1,2", "--max-new-tokens", "10", "--max-seq", "8"], "qwen3.input",
         "exceed the sequence limit 8"),
        (["logits", "--model", qwen3, "--ids", ",".join(["5"] * 65), "--out", str(root / "x")], "qwen3.input",
         "65 tokens and 0 new ones exceed the sequence limit 64"),
        (["generate", "--model", llama, "--ids", "1"], "config.model-type", '"model_type" is "llama"'),
        (["generate", "--model", str(root / "missing"), "--ids", "1"], "json.file", "cannot read"),
        # Valid prompts reach the checkpoint, which this folder does not have.
        (["generate", "--model", qwen3, "--ids", "1,2,3", "--max-new-tokens", "4"], "checkpoint.folder", ""),
        # The default of 128 new tokens does not fit max_position_embeddings 64.
        (["generate", "--model", qwen3, "--ids", "1,2,3"], "qwen3.input", "3 tokens and 128 new ones"),
        (["bench", "--model", qwen3, "--batches", "0"], "qwen3.usage", "positive batch sizes"),
        (["generate", "--model", yarn, "--ids", ",".join(["5"] * 100), "--max-new-tokens", "28"], "checkpoint.folder", ""),
        (["generate", "--model", yarn, "--ids", ",".join(["5"] * 100), "--max-new-tokens", "29"], "qwen3.input",
         "exceed the sequence limit 128 (max_seq 0, max_position_embeddings 64, YaRN 128 positions)"),
        (["generate", "--model", linear, "--ids", "1"], "config.unsupported", '"rope_scaling" has "rope_type" "linear"'),
        (["generate", "--model", no_factor, "--ids", "1"], "config.value", '"rope_scaling" is of type "yarn" and has no '
                                                                           '"factor"'),
        # --random-weights: every command takes it (check_qwen3_tp.py's random Qwen3-0.6B), a seed of 0 or
        # more, after the prompts' checks; config errors stay as they are.
        (["logits", "--model", qwen3, "--ids", "1", "--out", str(root / "x"), "--random-weights", "-1"], "qwen3.usage",
         "a seed of 0 or more"),
        (["generate", "--model", qwen3, "--ids", "1,1000", "--random-weights", "7"], "qwen3.input",
         "id 1000 at position 1 is outside [0, 1000)"),
        (["bench", "--model", qwen3, *small_bench, "--random-weights", "x"], "qwen3.usage",
         "--random-weights takes an integer"),
        (["bench", "--model", qwen3, *small_bench, "--random-weights", "-1"], "qwen3.usage", "a seed of 0 or more"),
        (["bench", "--model", llama, *small_bench, "--random-weights", "7"], "config.model-type", '"model_type" is "llama"'),
        (["bench", "--model", qwen3, "--random-weights", "7"], "qwen3.options", "max_seq 2048"),
        # Without --random-weights the same folder needs its checkpoint.
        (["bench", "--model", qwen3, *small_bench], "checkpoint.folder", ""),
        # --tensor-parallel N: an integer, 1 or more, that suits the model, checked before the prompts,
        # the weights and any GPU work; N = 1 runs as without it.
        (["generate", "--model", qwen3, "--ids", "1", "--tensor-parallel", "x"], "qwen3.usage",
         '--tensor-parallel takes an integer, got "x"'),
        (["generate", "--model", qwen3, "--ids", "1", "--tensor-parallel", "2.5"], "qwen3.usage",
         "--tensor-parallel takes an integer"),
        (["generate", "--model", qwen3, "--ids", "1", "--tensor-parallel", ""], "qwen3.usage",
         "--tensor-parallel takes an integer"),
        (["generate", "--model", qwen3, "--ids", "1", "--tensor-parallel"], "qwen3.usage", "needs a value"),
        (["generate", "--model", qwen3, "--ids", "1", "--tensor-parallel", "0"], "tp.ranks", "expected 1 or more"),
        (["logits", "--model", qwen3, "--ids", "1", "--out", str(root / "x"), "--tensor-parallel", "-2"], "tp.ranks",
         "--tensor-parallel -2: expected 1 or more"),
        (["generate", "--model", qwen3, "--ids", "1", "--tensor-parallel", "3"], "tp.q-heads",
         "num_attention_heads 4 is not a multiple of 3 (counts of up to 8 GPUs that split this model: 1, 2, 4)"),
        (["generate", "--model", qwen3, "--ids", "1", "--tensor-parallel", "99999999999"], "tp.q-heads",
         "num_attention_heads 4 is not a multiple of 99999999999"),
        (["generate", "--model", kv6, "--ids", "1", "--tensor-parallel", "4"], "tp.kv-heads",
         "num_key_value_heads 6 and 4 devices: neither divides the other"),
        (["generate", "--model", inter, "--ids", "1", "--tensor-parallel", "2"], "tp.intermediate",
         "intermediate_size 776 over 2 devices"),
        (["generate", "--model", vocab, "--ids", "1", "--tensor-parallel", "4"], "tp.vocab",
         "vocab_size 6 in rows of 2 leaves the last of 4 devices none"),
        (["generate", "--model", moe, "--ids", "1", "--tensor-parallel", "4"], "tp.experts",
         "num_experts 6 is not a multiple of 4"),
        (["bench", "--model", qwen3, *small_bench, "--random-weights", "7", "--tensor-parallel", "3"], "tp.q-heads",
         "--tensor-parallel 3"),
        (["generate", "--model", qwen3, "--ids", "1,1000", "--tensor-parallel", "3"], "tp.q-heads", ""),
        (["generate", "--model", str(root / "missing"), "--ids", "1", "--tensor-parallel", "2"], "json.file",
         "cannot read"),
        (["generate", "--model", qwen3, "--ids", "1,2,3", "--max-new-tokens", "4", "--tensor-parallel", "1"],
         "checkpoint.folder", ""),
        (["generate", "--model", qwen3, "--ids", "1", "--tensor-parallel", "2", "--tensor-parallel-emulate",
          "--tensor-parallel-nccl"], "tp.emulate", "both were given"),
        (["logits", "--model", qwen3, "--ids", "1", "--out", str(root / "x"), "--tensor-parallel", "3",
          "--tensor-parallel-emulate"], "tp.q-heads", "--tensor-parallel 3"),
    ]
    failed = 0
    for args, rule, text in cases:
        p = subprocess.run([program, *args], capture_output=True, text=True, timeout=60)
        first = p.stderr.splitlines()[0] if p.stderr else ""
        ok = p.returncode == 2 and first.startswith(f"cute-cpp [{rule}]: ") and text in first
        if not ok:
            failed += 1
            print(f"FAIL {args}: exit {p.returncode}, stderr {first!r}; expected [{rule}] with {text!r}")
    # config.json alone with --random-weights: past every check, to the GPU.
    random_runs = [
        (["bench", "--model", qwen3, *small_bench, "--random-weights", "7"], "weights: random (seed 7)"),
        (["logits", "--model", qwen3, "--ids", "1,2;3", "--out", str(root / "random.f32"), "--random-weights", "7"],
         "logits: 3 rows x 1000"),
        (["generate", "--model", qwen3, "--ids", "1,2", "--max-new-tokens", "4", "--ignore-eos", "--random-weights",
          "7"], "ids 0:"),
    ]
    for args, output in random_runs:
        p = subprocess.run([program, *args], capture_output=True, text=True, timeout=300)
        first = p.stderr.splitlines()[0] if p.stderr else ""
        no_gpu = p.returncode == 2 and not first.startswith("cute-cpp [") and " failed: cuda" in first
        ran = p.returncode == 0 and output in p.stdout
        if not (no_gpu or ran):
            failed += 1
            print(f"FAIL {args}: exit {p.returncode}, stderr {first!r}; expected a CUDA call's error (no GPU), or "
                  f"{output!r} on stdout")
    # A count that suits the model: refused for want of GPUs, else on to NCCL and the checkpoint (none here).
    for emulate in ([], ["--tensor-parallel-emulate"]):
        args = ["generate", "--model", qwen3, "--ids", "1", "--max-new-tokens", "4", "--tensor-parallel", "2",
                *emulate]
        p = subprocess.run([program, *args], capture_output=True, text=True, timeout=60)
        first = p.stderr.splitlines()[0] if p.stderr else ""
        too_few = first.startswith("cute-cpp [tp.gpus]: --tensor-parallel 2: ")
        loading = first.startswith("cute-cpp [checkpoint.folder]: ") or (
            not emulate and first.startswith("cute-cpp [tp.nccl]: "))
        if not (p.returncode == 2 and (too_few or loading)):
            failed += 1
            print(f"FAIL {args}: exit {p.returncode}, stderr {first!r}; expected [tp.gpus] (too few GPUs), "
                  f"[tp.nccl] (no NCCL) or [checkpoint.folder]")
    total = len(cases) + len(random_runs) + 2
    print(f"{total - failed} of {total} cases pass")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
