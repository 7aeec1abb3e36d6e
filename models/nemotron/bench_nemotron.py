#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The Nemotron-3 Nano benchmark of issue 46: cute-cpp-nemotron at full size with random weights (filled
on the device from config.json alone: 63 GB), decode at batch 1 and 32 beside the limit its bytes set,
and prefill of 2048 tokens beside transformers' NemotronHForCausalLM (eager, bf16, random weights built on
the GPU) in the same run, one after the other (both do not fit the H200 at once).

    bench_nemotron.py --build DIR [--work DIR] [--json FILE] [--no-transformers]

The limit of a decode step: the bytes it must move over the device's copy bandwidth, measured in the same
run (bench_qwen3.py's copy_bandwidth: a torch copy of 1 GiB, read plus written). A step reads every weight
but the routed experts (the LM head whole, the embedding's rows only, A_log / D / dt_bias and the
correction bias in f32), the experts its tokens choose (B tokens choosing k of E: E (1 - (1 - k/E)^B) a
layer under uniform routing, which random weights come close to), the conv and f32 SSM states of every
Mamba-2 layer read and written, and the attention layers' K and V of the context. At batch 1: 6.46 GB of
weights, 0.098 GB of states: about 630 tok/s at 4.16 TB/s; the issue's goal is 400 tok/s.
Records: `nemotron prefill` (ours beside transformers), `nemotron decode` with `batch N,` in the shape
(ours beside the limit; the ratio is the fraction of it), `nemotron decode goal` at batch 1 (ours
beside 400 tok/s), `nemotron decode pdl` (the decode graphs' kernel edges are programmatic by default:
ours beside the same steps from plain graphs, `bench --no-pdl`, a second run), `nemotron decode with norms
fused` (a decode step's Mamba and attention layers norm inside their input projection by default: ours
beside `bench --no-fused-norm`, a third run), and `nemotron decode phase`: each phase of a step
(`bench --breakdown`: a graph of the step with an event between every two phases; each phase summed
over its layers) beside the time
its own bytes take at the copy bandwidth (phase_bytes; the ratio is the fraction of that floor, and
0 for a phase that moves no weights or states), and `nemotron decode marginal phase`: what each phase
costs the step as it runs (`bench --marginal`: the step's graph, PDL and all, replayed whole and with
the phase's launches disabled; the median difference) beside the same floor.
"""
import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "qwen3"))
from bench_qwen3 import copy_bandwidth, time_cuda  # noqa: E402 -- the shared timing and the copy ceiling

ROOT = Path(__file__).resolve().parents[2]
PREFILL, CONTEXT, STEPS, BATCHES = 2048, 512, 64, (1, 32)
GOAL_BATCH1 = 400.0
# The decode steps' other forms, a bench run each: {flag: (record, reference)}.
VARIANTS = {"--no-pdl": ("nemotron decode pdl", "the same steps without PDL"),
            "--no-fused-norm": ("nemotron decode with norms fused",
                                "the same steps with each add + RMSNorm its own kernel")}
RANDOM_WEIGHTS_SEED = 46


def published_config():
    """Nemotron-3 Nano's config.json as published: <repo>/shared/models, else <repo>/../shared/models."""
    for folder in (ROOT / "shared/models", ROOT.parent / "shared/models"):
        path = folder / "nemotron-3-nano-30b-a3b.json"
        if path.exists():
            return json.loads(path.read_text())
    raise FileNotFoundError("nemotron-3-nano-30b-a3b.json in <repo>/shared/models or <repo>/../shared/models")


def step_bytes(c, batch, context):
    """(weights, states, kv) bytes of one decode step of `batch` sequences at `context` tokens (see above)."""
    h = c["hidden_size"]
    weights = batch * h * 2 + h * 2 + c["vocab_size"] * h * 2
    states = kv = 0.0
    heads, p, n, groups = c["mamba_num_heads"], c["mamba_head_dim"], c["ssm_state_size"], c["n_groups"]
    inner = heads * p
    conv = inner + 2 * groups * n
    for kind in c["hybrid_override_pattern"]:
        weights += h * 2
        if kind == "M":
            weights += (inner + conv + heads) * h * 2 + conv * c["conv_kernel"] * 2 + conv * 2 + 3 * heads * 4
            weights += inner * 2 + h * inner * 2
            states += 2 * batch * ((c["conv_kernel"] - 1) * conv * 2 + heads * p * n * 4)
        elif kind == "*":
            q, k = c["num_attention_heads"] * c["head_dim"], c["num_key_value_heads"] * c["head_dim"]
            weights += (q + 2 * k) * h * 2 + h * q * 2
            kv += batch * context * 2 * k * 2
        elif kind == "E":
            e, top = c["n_routed_experts"], c["num_experts_per_tok"]
            chosen = e * (1 - (1 - top / e) ** batch)
            weights += e * h * 2 + e * 4 + 2 * c["moe_shared_expert_intermediate_size"] * h * 2
            weights += chosen * 2 * c["moe_intermediate_size"] * h * 2
        elif kind == "-":
            weights += 2 * c["intermediate_size"] * h * 2
    return weights, states, kv


MOE_DECODE_TOKENS = 8  # kernels/moe's moe_decode_tokens: up to it the shared expert runs in "moe experts"


def phase_bytes(c, batch, context):
    """step_bytes' bytes split by the phases `cute-cpp-nemotron bench --breakdown` names: {phase: bytes}.
    Up to MOE_DECODE_TOKENS a step's ReLU^2 shared expert is in the experts' launches
    (moe_decode_folds_shared), so its bytes count under "moe experts"."""
    h = c["hidden_size"]
    heads, p, n, groups = c["mamba_num_heads"], c["mamba_head_dim"], c["ssm_state_size"], c["n_groups"]
    inner = heads * p
    conv = inner + 2 * groups * n
    out = {"embedding": batch * h * 2, "add + rmsnorm": h * 2, "lm head": c["vocab_size"] * h * 2}

    def add(name, b):
        out[name] = out.get(name, 0.0) + b
    for kind in c["hybrid_override_pattern"]:
        add("add + rmsnorm", h * 2)
        if kind == "M":
            add("mamba in_proj", (inner + conv + heads) * h * 2)
            add("mamba conv + ssm", conv * c["conv_kernel"] * 2 + conv * 2 + 3 * heads * 4 +
                2 * batch * ((c["conv_kernel"] - 1) * conv * 2 + heads * p * n * 4))
            add("mamba gated norm", inner * 2)
            add("mamba out_proj", h * inner * 2)
        elif kind == "*":
            q, k = c["num_attention_heads"] * c["head_dim"], c["num_key_value_heads"] * c["head_dim"]
            add("attention qkv", (q + 2 * k) * h * 2)
            add("attention kv + core", batch * context * 2 * k * 2)
            add("attention o", h * q * 2)
        elif kind == "E":
            e, top = c["n_routed_experts"], c["num_experts_per_tok"]
            add("moe router", e * h * 2 + e * 4)
            shared = 2 * c["moe_shared_expert_intermediate_size"] * h * 2
            folded = batch <= MOE_DECODE_TOKENS and c["moe_shared_expert_intermediate_size"] % 8 == 0
            add("moe experts", e * (1 - (1 - top / e) ** batch) * 2 * c["moe_intermediate_size"] * h * 2 +
                (shared if folded else 0.0))
            add("moe shared expert", 0.0 if folded else shared)
            add("moe combine", 0.0)
        elif kind == "-":
            add("mlp", 2 * c["intermediate_size"] * h * 2)
    return out


def transformers_prefill(config):
    """transformers' NemotronHForCausalLM with random bf16 weights built on the GPU: prefill of PREFILL tokens
    (tok/s, ms), the median of 3 after a warm-up."""
    import torch
    from transformers import NemotronHConfig, NemotronHForCausalLM
    fields = {k: v for k, v in config.items() if k not in ("architectures", "torch_dtype", "model_type")}
    cfg = NemotronHConfig(**fields)
    cfg._attn_implementation = "eager"
    torch.manual_seed(0)
    default = torch.get_default_dtype()
    torch.set_default_dtype(torch.bfloat16)
    try:
        with torch.device("cuda"):
            model = NemotronHForCausalLM(cfg).eval()
    finally:
        torch.set_default_dtype(default)
    try:
        x = torch.randint(0, cfg.vocab_size, (1, PREFILL), device="cuda")
        with torch.inference_mode():
            model(x, logits_to_keep=1, use_cache=False)
            ms = time_cuda(lambda: model(x, logits_to_keep=1, use_cache=False), 3)
        return PREFILL / ms * 1e3, ms
    finally:
        model = None  # freed before ours runs (the timed lambda is done)
        torch.cuda.empty_cache()


def phase_records(figures, figure, word, b, floors, bandwidth, records):
    """Batch b's phases among `figures` named `figure` (bench --breakdown's `nemotron decode phase`, or
    --marginal's `nemotron decode marginal phase`) into `records` under that name, each beside its
    bytes (`floors`) at the copy bandwidth; printed after `word`."""
    for f in (f for f in figures if f["name"] == figure and f["shape"].startswith(f"batch {b}, context {CONTEXT}, ")):
        phase = f["shape"].split(", ", 2)[2]
        floor_us = floors.get(phase, 0.0) / bandwidth * 1e6
        us = f["value"]
        records.append({"kernel": figure,
                        "shape": f"batch {b}, {phase} ({f['count']} a step), context {CONTEXT} (Nemotron-3 Nano)",
                        "dtype": "bf16", "ours": us, "reference": "its bytes at the copy bandwidth",
                        "reference_value": floor_us, "unit": "us", "ratio": floor_us / us if us > 0 else 0.0,
                        "microseconds": us})
        print(f"{word} batch {b}: {phase:<22} {us:9.1f} us a step ({f['count']} a step); its bytes "
              f"{floors.get(phase, 0.0) / 1e6:8.1f} MB take {floor_us:7.1f} us", flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", required=True)
    ap.add_argument("--work")
    ap.add_argument("--json")
    ap.add_argument("--no-transformers", action="store_true", help="skip transformers' prefill")
    opts = ap.parse_args()
    binary = Path(opts.build) / "models/nemotron/cute-cpp-nemotron"
    if not binary.is_file():
        print(f"FAIL: {binary} is missing (build the target cute-cpp-nemotron)", file=sys.stderr)
        return 1
    config = published_config()
    work = Path(opts.work or tempfile.mkdtemp(prefix="bench_nemotron-"))
    folder = work / "nemotron-3-nano-config-only"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "config.json").write_text(json.dumps(config, indent=1) + "\n")
    bandwidth = copy_bandwidth()
    reference = None
    if not opts.no_transformers:
        t0 = time.time()
        reference = transformers_prefill(config)
        print(f"transformers prefill {PREFILL}: {reference[0]:.0f} tok/s ({time.time() - t0:.0f} s with the build)",
              flush=True)
    out = work / "ours.json"
    p = subprocess.run([str(binary), "bench", "--model", str(folder), "--random-weights", str(RANDOM_WEIGHTS_SEED),
                        "--prefill-len", str(PREFILL), "--context", str(CONTEXT), "--steps", str(STEPS), "--batches",
                        ",".join(map(str, BATCHES)), "--json", str(out), "--breakdown", "--marginal"],
                       capture_output=True, text=True, timeout=590)
    print(p.stdout, p.stderr, sep="", flush=True)
    if p.returncode != 0 or "no CUDA graph" in p.stderr:
        print("FAIL: cute-cpp-nemotron bench --random-weights", flush=True)
        return 1
    ours = {f["name"] + "|" + f["shape"]: f for f in json.loads(out.read_text())}
    # The decode steps again from graphs without programmatic (PDL) kernel edges, and with each add +
    # RMSNorm its own kernel: a run of its own each (the options are the model's), with a short prefill.
    plain_failed, variants = False, {}
    for flag in VARIANTS:
        out_plain = work / f"ours{flag}.json"
        p = subprocess.run([str(binary), "bench", "--model", str(folder), "--random-weights", str(RANDOM_WEIGHTS_SEED),
                            "--prefill-len", "128", "--context", str(CONTEXT), "--steps", str(STEPS), "--batches",
                            ",".join(map(str, BATCHES)), "--json", str(out_plain), flag], capture_output=True,
                           text=True, timeout=590)
        print(p.stdout, p.stderr, sep="", flush=True)
        if p.returncode != 0 or "no CUDA graph" in p.stderr:
            plain_failed = True
            print(f"FAIL: cute-cpp-nemotron bench --random-weights {flag}", flush=True)
            continue
        variants[flag] = {f["name"] + "|" + f["shape"]: f for f in json.loads(out_plain.read_text())}
    records = []
    prefill = ours[f"nemotron prefill|1 x {PREFILL}"]
    records.append({"kernel": "nemotron prefill", "shape": f"1 x {PREFILL} (Nemotron-3 Nano, random weights)",
                    "dtype": "bf16", "ours": prefill["value"], "reference": "transformers eager",
                    "reference_value": reference[0] if reference else 0.0, "unit": "tok/s",
                    "ratio": prefill["value"] / reference[0] if reference else 0.0,
                    "microseconds": prefill["ms"] * 1e3})
    for b in BATCHES:
        decode = ours[f"nemotron decode|batch {b}, context {CONTEXT}"]
        weights, states, kv = step_bytes(config, b, CONTEXT + STEPS // 2)
        limit = b * bandwidth / (weights + states + kv)
        shape = f"batch {b}, context {CONTEXT} (Nemotron-3 Nano, random weights)"
        records.append({"kernel": "nemotron decode", "shape": shape, "dtype": "bf16", "ours": decode["value"],
                        "reference": "tokens x copy bandwidth / bytes a step", "reference_value": limit,
                        "unit": "tok/s", "ratio": decode["value"] / limit, "microseconds": decode["ms"] * 1e3})
        print(f"decode batch {b}: ours {decode['value']:.0f} tok/s; a step moves weights {weights / 1e9:.2f} GB, "
              f"states {states / 1e9:.3f} GB, KV {kv / 1e9:.3f} GB at {bandwidth / 1e12:.2f} TB/s: limit {limit:.0f} "
              f"tok/s (ours {decode['value'] / limit:.2f} of it)", flush=True)
        for flag, (kernel, reference) in VARIANTS.items():
            without = variants.get(flag, {}).get(f"nemotron decode|batch {b}, context {CONTEXT}")
            if not without:
                continue
            records.append({"kernel": kernel, "shape": shape, "dtype": "bf16", "ours": decode["value"],
                            "reference": reference, "reference_value": without["value"], "unit": "tok/s",
                            "ratio": decode["value"] / without["value"], "microseconds": decode["ms"] * 1e3})
            print(f"decode batch {b}, {reference}: {without['value']:.0f} tok/s ({without['value'] / limit:.2f} of "
                  f"the limit; ours {decode['value'] / without['value']:.3f}x it)", flush=True)
        floors = phase_bytes(config, b, CONTEXT + STEPS // 2)
        for figure, word in (("nemotron decode phase", "breakdown"), ("nemotron decode marginal phase", "marginal")):
            phase_records(ours.values(), figure, word, b, floors, bandwidth, records)
        if b == 1:
            records.append({"kernel": "nemotron decode goal", "shape": shape, "dtype": "bf16", "ours": decode["value"],
                            "reference": "issue 46's goal", "reference_value": GOAL_BATCH1, "unit": "tok/s",
                            "ratio": decode["value"] / GOAL_BATCH1, "microseconds": decode["ms"] * 1e3})
    if opts.json:
        Path(opts.json).write_text(json.dumps(records, indent=1) + "\n")
    return 1 if plain_failed else 0


if __name__ == "__main__":
    sys.exit(main())
