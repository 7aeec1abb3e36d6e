#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The Qwen3-8B benchmark of issue 21: cute-cpp-qwen3 beside transformers (eager, bf16) on the same
full-size checkpoint, in the same run; and (issue 51) decode at batch 1 beside its memory-bandwidth
limit for published Qwen3 configs.

    bench_qwen3.py --build DIR [--work DIR] [--json FILE] [--layers N]
                   [--decode-limit-configs 0.6b,32b [--configs-dir DIR] [--only-decode-limit]] [--moe | --only-moe]

Real weights cannot be downloaded on the lent machine, so the checkpoint is Qwen3-8B's exact
config with random weights, built on the GPU by transformers and saved sharded as the hub
publishes it (the figures do not depend on the values). Figures: prefill of 2048 tokens (tok/s),
time to first token for 512 tokens (ms), decode at batch 1 and 32 after a 512-token context
(tok/s, each step drawing its token greedily), and the load time. The bandwidth limit of batch-1
decode is the weights' bytes over the measured device-copy ceiling (4.16 TB/s): 254 tok/s.
Each decode batch's step phase by phase (`bench --profile`: the step recorded with an event between
every two phases, 20 replays, so without PDL; each phase summed over its layers): records `qwen3 decode
phase`, beside the time its own bytes (weights, and the KV cache for attention) take at the copy bandwidth
measured in the same run (phase_bytes; the ratio is the fraction of that floor, 0 for a phase that moves
no weights); at batch 1 also the --fused-dense-norm run's (`qwen3 decode phase, norms folded`), the
QKV and gate-up projections with their norms inside. And what each phase costs the step as it runs
(`bench --marginal`: the step's graph, PDL and all, replayed whole and with that phase's launches
disabled; the median difference):
records `qwen3 decode marginal phase` beside the same floor (Qwen3-30B-A3B's: `qwen3-30b-a3b decode
marginal phase`).

--decode-limit-configs: for each published config named (qwen3-<size>.json, found as
check_qwen3.py finds them: --configs-dir, else <repo>/shared/models, else <repo>/../shared/models),
a folder with that config.json alone and `cute-cpp-qwen3 bench --random-weights` on it (the weights
filled on the device: Qwen3-32B's 65 GB fit the H200 but not the lent machine's disk): decode at
batch 1 after a 512-token context, beside the limit arithmetic. A token reads every weight matrix
once (the LM head included; of the embedding only its row, gathered), so the limit is those bytes
over the device's copy bandwidth, measured in the same run (torch copies of a 1 GiB buffer, far
past the L2, bytes read plus written, median of 20): its record's ratio is our tok/s as a fraction
of that bound. The KV cache's reads at that context are printed beside it, not counted. Each config
also with --fused-steps (the step as one launch, models/qwen3/fused_step.hpp; records `..., fused
steps`), unless the fused step refuses its widths. Qwen3-8B's batch-1 step with --fused-steps is also
timed beside the layered graph (`qwen3 decode with fused steps`).
--only-decode-limit skips the Qwen3-8B comparison with transformers.

--moe (issue 45): Qwen3-30B-A3B (qwen3-30b-a3b.json, found as above) at full size with random weights,
filled on the device by `cute-cpp-qwen3 bench --random-weights` from config.json alone and by
transformers (Qwen3MoeForCausalLM, eager, bf16, built on the GPU) in the same run, one after the other:
prefill of 2048 tokens and decode at batch 1, 8, 32 and 128 after a 512-token context, ours beside
transformers' (records `qwen3-30b-a3b prefill`, `qwen3-30b-a3b decode` with `batch N,` in the shape),
and each decode batch beside the weight-bandwidth limit: a step reads the attention, router and norm
weights, the LM head, and the experts its tokens chose; with B tokens each choosing k of E experts, a
layer touches E (1 - (1 - k/E)^B) of them on average (routing taken as uniform: random weights route
near-uniformly), each 3 x moe_intermediate x hidden bf16 values. Records `qwen3-30b-a3b decode vs
weight-bandwidth limit` (and at batch 1 with --fused-steps: `qwen3-30b-a3b decode with fused steps` beside the
layered step, `... limit, fused steps`), and each batch's step phase by phase as the 8B's (`qwen3-30b-a3b decode phase`;
a MoE layer's router and experts beside their bytes, counted as above).

--tensor-parallel-decode SIZES (issue 49; tensor_parallel.md): decode of published configs (8b, 32b, 30b-a3b;
config.json alone, `--random-weights`) at batch 1, 8 and 32 after a 512-token context, at N = 1 and at each N of
TP_DECODE_RANKS[size] the visible GPUs allow, over NCCL (`--tensor-parallel N --profile`). Records (shape
`Qwen3-8B, N=2, batch 8, ...`): `tensor parallel qwen3 decode`, N GPUs' tok/s against one GPU's (the ratio);
`tensor parallel qwen3 decode vs step bound`, against batch / decode_step_seconds_bound (tp_plan: rank 0's
weight bytes at the copy bandwidth measured here, the collectives' wire bytes at --link-gbps, no latency
term, so the figure shows what the collectives' latency costs; the latency a step implies is printed);
`tensor parallel qwen3 decode collectives`, the all-reduce and all-gather phases of rank 0's profiled
step (bench --profile's marks) against the step. Only these run. With fewer than 2 GPUs nothing runs
and the script exits 3 (not run).
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

# Qwen3-8B's config.json as published (../shared/models/qwen3-8b.json).
QWEN3_8B = {
    "architectures": ["Qwen3ForCausalLM"], "model_type": "qwen3", "hidden_size": 4096,
    "intermediate_size": 12288, "num_hidden_layers": 36, "num_attention_heads": 32, "num_key_value_heads": 8,
    "head_dim": 128, "vocab_size": 151936, "max_position_embeddings": 40960, "rope_theta": 1000000,
    "rms_norm_eps": 1e-06, "hidden_act": "silu", "attention_bias": False, "tie_word_embeddings": False,
    "torch_dtype": "bfloat16", "bos_token_id": 151643, "eos_token_id": 151645,
}
PREFILL, TTFT, CONTEXT, STEPS, BATCHES = 2048, 512, 512, 64, (1, 32)
MOE_BATCHES = (1, 8, 32, 128)
TP_DECODE_BATCHES = (1, 8, 32)
TP_DECODE_RANKS = {"8b": (2, 4, 8), "32b": (2, 4), "30b-a3b": (2,)}
# NOTE: the all-reduce bus bandwidth seen on the lent H100 hosts (KINDS.md, NCCL, 1 GiB: 329-361 GB/s);
# at decode's batches the wire bytes are small, so the bound hardly depends on it.
LINK_GBPS = 350
RANDOM_WEIGHTS_SEED = 51
COPY_BYTES, COPY_RUNS = 1 << 30, 20  # the H200's L2 is 50 MB


def build_checkpoint(folder, layers):
    import torch
    from transformers import Qwen3Config, Qwen3ForCausalLM
    cfg = dict(QWEN3_8B, num_hidden_layers=layers)
    theta = cfg.pop("rope_theta")
    config = Qwen3Config(**{k: v for k, v in cfg.items() if k not in ("architectures", "torch_dtype", "model_type")})
    rope = getattr(config, "rope_parameters", None)
    if isinstance(rope, dict):  # transformers 5 keeps theta there
        rope["rope_theta"] = theta
        rope.setdefault("rope_type", "default")
    else:
        config.rope_theta = theta
    torch.manual_seed(0)
    with torch.device("cuda"):
        model = Qwen3ForCausalLM(config).to(torch.bfloat16)
    model.eval()
    model.config.torch_dtype = torch.bfloat16
    model.save_pretrained(folder, safe_serialization=True, max_shard_size="5GB")
    return model


def time_cuda(fn, runs):
    import torch
    times = []
    for _ in range(runs):
        start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        stop.record()
        stop.synchronize()
        times.append(start.elapsed_time(stop))
    return statistics.median(times)


def reference_figures(model, batches=BATCHES, skip_out_of_memory=False):
    """transformers eager: the same figures as the program's bench command. With skip_out_of_memory, a
    figure whose activations do not fit beside the model (Qwen3-30B-A3B's batch 32 on an 80 GB card) is
    left out (and said so) instead of ending the run."""
    import torch
    vocab = model.config.vocab_size
    gen = torch.Generator(device="cuda").manual_seed(1)
    ids = lambda b, n: torch.randint(0, vocab, (b, n), device="cuda", generator=gen)
    figures = {}

    def measure(key, how):
        try:
            figures[key] = how()
        except torch.OutOfMemoryError:
            if not skip_out_of_memory:
                raise
            torch.cuda.empty_cache()
            print(f"transformers: {key} out of memory on this GPU; that reference is left out", flush=True)

    def prefill():
        x = ids(1, PREFILL)
        model(x)  # warm-up
        ms = time_cuda(lambda: model(x, logits_to_keep=1), 3)
        return PREFILL / ms * 1e3, ms

    def ttft():
        x = ids(1, TTFT)
        ms = time_cuda(lambda: model(x, logits_to_keep=1).logits[:, -1].argmax(-1).item(), 3)
        return ms, ms

    def decode(b):
        x = ids(b, CONTEXT)
        mask = torch.ones_like(x)
        kw = dict(do_sample=False, min_new_tokens=STEPS, max_new_tokens=STEPS, pad_token_id=0, eos_token_id=None,
                  attention_mask=mask)
        model.generate(x, **dict(kw, min_new_tokens=4, max_new_tokens=4))  # warm-up
        t_prefill = time_cuda(lambda: model(x, logits_to_keep=1), 1)
        t_all = time_cuda(lambda: model.generate(x, **kw), 1)
        step = (t_all - t_prefill) / (STEPS - 1)
        return b / step * 1e3, step

    with torch.inference_mode():
        measure("prefill", prefill)
        measure("ttft", ttft)
        for b in batches:
            measure(f"decode{b}", lambda: decode(b))
    return figures


def compare_with_transformers(opts, binary, work, records):
    """Qwen3-8B's figures, ours beside transformers', into `records`; 0, or 1 if our bench failed."""
    folder = work / "qwen3-8b-random"
    t0 = time.time()
    model = build_checkpoint(folder, opts.layers)
    print(f"checkpoint: {folder} built in {time.time() - t0:.0f} s", flush=True)
    del model
    import torch
    from transformers import Qwen3ForCausalLM
    torch.cuda.empty_cache()
    # The reference's load: from_pretrained onto the GPU, as a user loads it (the files are in the
    # page cache for both, having just been written).
    t0 = time.time()
    try:
        model = Qwen3ForCausalLM.from_pretrained(folder, dtype=torch.bfloat16, device_map="cuda")
    except TypeError:
        model = Qwen3ForCausalLM.from_pretrained(folder, torch_dtype=torch.bfloat16, device_map="cuda")
    torch.cuda.synchronize()
    ref_load_s = time.time() - t0
    model.eval()
    ref = reference_figures(model)
    ref["load"] = (ref_load_s, ref_load_s * 1e3)
    del model
    torch.cuda.empty_cache()

    ours_json = work / "ours.json"
    t0 = time.time()
    p = subprocess.run([str(binary), "bench", "--model", str(folder), "--prefill-len", str(PREFILL), "--ttft-len",
                        str(TTFT), "--context", str(CONTEXT), "--steps", str(STEPS), "--batches",
                        ",".join(map(str, BATCHES)), "--profile", "--marginal", "--json", str(ours_json)],
                       capture_output=True, text=True, timeout=900)
    print(p.stdout, p.stderr, sep="", flush=True)
    if p.returncode != 0:
        print("bench: cute-cpp-qwen3 bench failed", flush=True)
        return 1
    if "no CUDA graph" in p.stderr:
        print("bench: the decode step could not be recorded as a CUDA graph (decode figures are eager)", flush=True)
        return 1
    print(f"cute-cpp-qwen3 bench (with loading the checkpoint) took {time.time() - t0:.0f} s", flush=True)
    ours = {f["name"] + "|" + f["shape"]: f for f in json.loads(ours_json.read_text())}
    shape_of = {"prefill": f"1 x {PREFILL}", "ttft": f"1 x {TTFT}", "load": "checkpoint to device",
                **{f"decode{b}": f"batch {b}, context {CONTEXT}" for b in BATCHES}}
    name_of = {"prefill": "qwen3 prefill", "ttft": "qwen3 time to first token", "load": "qwen3 load",
               **{f"decode{b}": "qwen3 decode" for b in BATCHES}}
    for key, (ref_value, _) in ref.items():
        f = ours[name_of[key] + "|" + shape_of[key]]
        lower_is_better = f["unit"] in ("ms", "s")
        ratio = ref_value / f["value"] if lower_is_better else f["value"] / ref_value
        records.append({"kernel": f"{name_of[key]} (Qwen3-8B, {opts.layers} layers)", "shape": shape_of[key],
                        "dtype": "bf16", "ours": f["value"], "reference": "transformers eager",
                        "reference_value": ref_value, "unit": f["unit"], "ratio": ratio,
                        "microseconds": f["ms"] * 1e3})
        print(f"{name_of[key]} {shape_of[key]}: ours {f['value']:.1f} {f['unit']}, transformers {ref_value:.1f}"
              f" ({'ref/ours' if lower_is_better else 'ours/ref'} {ratio:.2f})", flush=True)
    config = dict(json.loads((folder / "config.json").read_text()), num_hidden_layers=opts.layers)
    bandwidth = copy_bandwidth()
    phase_records(config, ours.values(), records, "qwen3 decode phase", f"Qwen3-8B, {opts.layers} layers", bandwidth)
    phase_records(config, ours.values(), records, "qwen3 decode marginal phase", f"Qwen3-8B, {opts.layers} layers",
                  bandwidth, figure="qwen3 decode marginal phase")
    # The decode step's graph without programmatic dependent launch (and without the GEMMs' early
    # weight loads, which need it), for what PDL buys; and at batch 1 without the early weight loads
    # alone (--no-prefetch: the wgmma GEMMs' first weight stages and the GEMV's first round of weight
    # loads before the wait), for what they buy where a step streams every weight once.
    # And the RMSNorms before the QKV and gate-up projections as their own kernels (the default) against
    # folded into them (--fused-dense-norm), that run's step profiled too, so that each fused projection
    # reads beside its norm and GEMV apart.
    # And at batch 1 the step as one launch (--fused-steps, models/qwen3/fused_step.hpp): that run is
    # the figure, the default (layered) run its reference.
    for flag, batches, what, reference in (("--no-pdl", BATCHES, "with PDL", "the same graph without PDL"),
                                           ("--no-prefetch", (1,), "with early weight loads",
                                            "the same graph without early weight loads"),
                                           ("--fused-dense-norm", (1,), "with norms as their own kernels",
                                            "the same graph with the norms folded into the QKV and gate-up "
                                            "projections"),
                                           ("--fused-steps", (1,), "with fused steps",
                                            "the layered step's graph")):
        plain_json = work / f"ours{flag}.json"
        p = subprocess.run([str(binary), "bench", "--model", str(folder), "--prefill-len", "64", "--ttft-len", "64",
                            "--context", str(CONTEXT), "--steps", str(STEPS), "--batches", ",".join(map(str, batches)),
                            flag, *(["--profile"] if flag == "--fused-dense-norm" else []), "--json", str(plain_json)],
                           capture_output=True, text=True, timeout=900)
        if p.returncode != 0 or "no CUDA graph" in p.stderr:
            print(p.stdout, p.stderr, f"bench: cute-cpp-qwen3 bench {flag} failed", sep="", flush=True)
            return 1
        plain = {f["name"] + "|" + f["shape"]: f for f in json.loads(plain_json.read_text())}
        for b in batches:
            key = f"qwen3 decode|batch {b}, context {CONTEXT}"
            ours_b, without = (plain[key], ours[key]) if flag == "--fused-steps" else (ours[key], plain[key])
            records.append({"kernel": f"qwen3 decode {what} (Qwen3-8B, {opts.layers} layers)",
                            "shape": shape_of[f"decode{b}"], "dtype": "bf16", "ours": ours_b["value"],
                            "reference": reference, "reference_value": without["value"], "unit": "tok/s",
                            "ratio": ours_b["value"] / without["value"], "microseconds": ours_b["ms"] * 1e3})
            print(f"qwen3 decode batch {b}: {what} {ours_b['value']:.1f} tok/s, without {without['value']:.1f}",
                  flush=True)
        if flag == "--fused-dense-norm":
            phase_records(config, plain.values(), records, "qwen3 decode phase, norms folded",
                          f"Qwen3-8B, {opts.layers} layers", bandwidth)
    return 0


def copy_bandwidth():
    """The device's copy bandwidth in bytes/s: bytes read plus written by a torch copy of COPY_BYTES,
    the median of COPY_RUNS after a warm-up."""
    import torch
    src = torch.empty(COPY_BYTES, dtype=torch.uint8, device="cuda")
    dst = torch.empty_like(src)
    dst.copy_(src)
    ms = time_cuda(lambda: dst.copy_(src), COPY_RUNS)
    src = dst = None  # freed (the timed lambda is done)
    torch.cuda.empty_cache()
    return 2 * COPY_BYTES / (ms * 1e-3)


def phase_bytes(c, batch, context):
    """The bytes a decode step's phases move, by the names `cute-cpp-qwen3 bench --profile` marks:
    {phase: bytes}. Weights once a step; attention reads `context` cached tokens a sequence; Qwen3-MoE's
    sparse layers their routers ("moe router") and the experts their tokens chose ("moe experts"),
    counted as moe_weight_bytes_per_step counts them (uniform routing); "fused step" (--fused-steps) all
    of the layers'."""
    hidden, inter, head_dim, layers = c["hidden_size"], c["intermediate_size"], c["head_dim"], c["num_hidden_layers"]
    q, kv = c["num_attention_heads"] * head_dim, c["num_key_value_heads"] * head_dim
    norm = 2 * hidden
    qkv, o, gate_up, down = 2 * hidden * (q + 2 * kv), 2 * q * hidden, 2 * 2 * inter * hidden, 2 * inter * hidden
    each = {"add + rmsnorm": norm, "add + rmsnorm + qkv gemm": norm + qkv, "qkv gemm": qkv, "o gemm": o,
            "decode attention": batch * context * 2 * kv * 2}
    out = {name: layers * b for name, b in each.items()}
    experts = c.get("num_experts", 0)
    sparse = [layer not in c.get("mlp_only_layers", []) and (layer + 1) % c.get("decoder_sparse_step", 1) == 0
              for layer in range(layers)] if experts else [False] * layers
    dense = sparse.count(False)
    out.update({"add + rmsnorm + gate-up gemm + swiglu": dense * (norm + gate_up), "gate-up gemm + swiglu":
                dense * gate_up, "gate-up gemm": dense * gate_up, "swiglu": 0, "down gemm": dense * down})
    if experts:
        touched = experts * (1 - (1 - c["num_experts_per_tok"] / experts) ** batch)
        out["moe router"] = sparse.count(True) * 2 * experts * hidden
        out["moe experts"] = sparse.count(True) * 2 * touched * 3 * c["moe_intermediate_size"] * hidden
        out["moe combine"] = 0
    # --fused-steps: every layer in one launch (its final norm counted with the LM head, as the layered step's).
    out["fused step"] = (layers * (2 * norm + qkv + o) + out["decode attention"] + dense * (gate_up + down) +
                         out.get("moe router", 0) + out.get("moe experts", 0))
    out.update({"embedding": batch * hidden * 2, "lm head": 2 * c["vocab_size"] * hidden + norm})
    return out


def phase_records(config, figures, records, kernel, about, bandwidth=None, figure="qwen3 decode phase"):
    """`bench --profile`'s phases (figures named `figure`: `qwen3 decode phase`, or `bench --marginal`'s
    `qwen3 decode marginal phase`) into `records` as `kernel`, each beside its bytes at the copy
    bandwidth (measured here unless given); `about` ends the shape."""
    phases = [f for f in figures if f["name"] == figure]
    if not phases:
        return
    bandwidth = bandwidth or copy_bandwidth()
    for f in phases:
        batch, context, phase = f["shape"].split(", ", 2)
        b, ctx = int(batch.split()[1]), int(context.split()[1])
        floor_us = phase_bytes(config, b, ctx).get(phase, 0.0) / bandwidth * 1e6
        us = f["value"]
        records.append({"kernel": kernel, "dtype": "bf16",
                        "shape": f"{batch}, {phase} ({f['count']} a step), {context} ({about})",
                        "ours": us, "reference": "its bytes at the copy bandwidth", "reference_value": floor_us,
                        "unit": "us", "ratio": floor_us / us if us > 0 else 0.0, "microseconds": us})
        print(f"{'marginal' if 'marginal' in figure else 'profile'} {batch}: {phase:<38} {us:9.1f} us a step "
              f"({f['count']} a step); its bytes take "
              f"{floor_us:7.1f} us", flush=True)


def weight_bytes_per_token(c):
    """Bytes of bf16 weights a decode token reads in config `c`: each layer's matrices (q/k/v, o,
    gate, up, down) and norms, the final norm, the LM head whole, and the embedding's one row."""
    hidden, inter, head_dim = c["hidden_size"], c["intermediate_size"], c["head_dim"]
    q, kv = c["num_attention_heads"] * head_dim, c["num_key_value_heads"] * head_dim
    layer = hidden * (q + 2 * kv) + q * hidden + 3 * inter * hidden + 2 * hidden + 2 * head_dim
    return 2 * (c["num_hidden_layers"] * layer + hidden + c["vocab_size"] * hidden + hidden)


def kv_bytes_per_token(c, context):
    """Bytes of the bf16 KV cache a decode token reads at `context` cached tokens."""
    return 2 * 2 * c["num_hidden_layers"] * context * c["num_key_value_heads"] * c["head_dim"]


def decode_limit(opts, binary, work, records):
    """Decode at batch 1 of each --decode-limit-configs config (random weights, config.json alone)
    as a fraction of its weight-bandwidth limit, into `records`; 0, or 1 if a bench failed."""
    from check_qwen3 import configs_folder  # the published configs, found as the checks find them
    sizes = opts.decode_limit_configs
    try:
        configs = configs_folder(opts.configs_dir, sizes)
    except FileNotFoundError as e:
        print(f"bench: {e}", flush=True)
        return 1
    bandwidth = copy_bandwidth()
    print(f"device copy bandwidth: {bandwidth / 1e12:.2f} TB/s (a {COPY_BYTES >> 20} MiB copy, read + write, "
          f"median of {COPY_RUNS})", flush=True)
    failed = 0
    for size in sizes:
        label = f"Qwen3-{size.upper()}"
        config = json.loads((configs / f"qwen3-{size}.json").read_text())
        folder = work / f"qwen3-{size}-config-only"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "config.json").write_text(json.dumps(config, indent=1) + "\n")
        # The layered step, then the fused one (--fused-steps; the layered again where it refuses the model).
        for fused in (False, True):
            out = work / f"ours-random-{size}{'-fused' if fused else ''}.json"
            p = subprocess.run([str(binary), "bench", "--model", str(folder), "--random-weights",
                                str(RANDOM_WEIGHTS_SEED), "--prefill-len", "64", "--ttft-len", "64", "--context",
                                str(CONTEXT), "--steps", str(STEPS), "--batches", "1", "--json", str(out),
                                *(["--fused-steps"] if fused else [])], capture_output=True, text=True, timeout=600)
            print(p.stdout, p.stderr, sep="", flush=True)
            if p.returncode != 0 or "no CUDA graph" in p.stderr or "weights: random (seed" not in p.stdout:
                print(f"bench: cute-cpp-qwen3 bench --random-weights failed on {label}", flush=True)
                failed = 1
                continue
            if fused and "decode steps stay layered" in p.stderr:
                continue
            ours = {f["name"] + "|" + f["shape"]: f for f in json.loads(out.read_text())}
            decode = ours[f"qwen3 decode|batch 1, context {CONTEXT}"]
            weights = weight_bytes_per_token(config)
            limit = bandwidth / weights
            ratio = decode["value"] / limit
            what = ", fused steps" if fused else ""
            records.append({"kernel": f"qwen3 decode batch 1 vs weight-bandwidth limit{what}",
                            "shape": f"{label}, context {CONTEXT} (random weights)", "dtype": "bf16",
                            "ours": decode["value"], "reference": "weight bytes per token / measured copy bandwidth",
                            "reference_value": limit, "unit": "tok/s", "ratio": ratio,
                            "microseconds": decode["ms"] * 1e3})
            print(f"{label} decode batch 1{what}: {weights / 1e9:.2f} GB of weights a token at "
                  f"{bandwidth / 1e12:.2f} TB/s: limit {limit:.1f} tok/s; ours {decode['value']:.1f} tok/s = "
                  f"{ratio:.2f} of it (the KV cache adds {kv_bytes_per_token(config, CONTEXT) / 1e6:.0f} MB a token "
                  f"at context {CONTEXT}, not counted)", flush=True)
    return failed


def moe_weight_bytes_per_step(c, batch):
    """Bytes of bf16 weights a Qwen3-MoE decode step of `batch` tokens reads (see --moe): per layer
    the attention's matrices, the norms and the router, and the experts its tokens chose (expected
    count under uniform routing; a dense layer of mlp_only_layers reads its whole MLP), then the final
    norm, the LM head whole and the embedding's rows."""
    hidden, head_dim = c["hidden_size"], c["head_dim"]
    q, kv = c["num_attention_heads"] * head_dim, c["num_key_value_heads"] * head_dim
    experts, k, width = c["num_experts"], c["num_experts_per_tok"], c["moe_intermediate_size"]
    touched = experts * (1 - (1 - k / experts) ** batch)
    total = 0.0
    for layer in range(c["num_hidden_layers"]):
        total += hidden * (q + 2 * kv) + q * hidden + 2 * hidden + 2 * head_dim
        sparse = layer not in c.get("mlp_only_layers", []) and (layer + 1) % c.get("decoder_sparse_step", 1) == 0
        total += experts * hidden + touched * 3 * width * hidden if sparse else 3 * c["intermediate_size"] * hidden
    return 2 * (total + hidden + c["vocab_size"] * hidden + batch * hidden)


def moe_reference(config):
    """transformers' Qwen3-30B-A3B, random bf16 weights built on the GPU: its figures at MOE_BATCHES."""
    import torch
    from transformers import Qwen3MoeConfig, Qwen3MoeForCausalLM
    fields = {k: v for k, v in config.items() if k not in ("architectures", "torch_dtype", "model_type")}
    theta = fields.pop("rope_theta")
    cfg = Qwen3MoeConfig(**fields)
    rope = getattr(cfg, "rope_parameters", None)
    if isinstance(rope, dict):
        rope["rope_theta"] = theta
        rope.setdefault("rope_type", "default")
    else:
        cfg.rope_theta = theta
    cfg._attn_implementation = "eager"
    torch.manual_seed(0)
    default = torch.get_default_dtype()
    torch.set_default_dtype(torch.bfloat16)
    try:
        with torch.device("cuda"):
            model = Qwen3MoeForCausalLM(cfg).eval()
    finally:
        torch.set_default_dtype(default)
    try:
        return reference_figures(model, MOE_BATCHES, skip_out_of_memory=True)
    finally:
        del model
        torch.cuda.empty_cache()


def moe_bench(opts, binary, work, records):
    """Qwen3-30B-A3B at full size, ours beside transformers and beside the weight-bandwidth limit (see
    --moe), into `records`; 0, or 1 if our bench failed."""
    from check_qwen3 import configs_folder
    try:
        config = json.loads((configs_folder(opts.configs_dir, ["30b-a3b"]) / "qwen3-30b-a3b.json").read_text())
    except FileNotFoundError as e:
        print(f"bench: {e}", flush=True)
        return 1
    label = "qwen3-30b-a3b"
    bandwidth = copy_bandwidth()
    t0 = time.time()
    ref = moe_reference(config)
    print(f"transformers Qwen3-30B-A3B (random weights on the device): figures in {time.time() - t0:.0f} s", flush=True)
    folder = work / "qwen3-30b-a3b-config-only"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "config.json").write_text(json.dumps(config, indent=1) + "\n")
    out = work / "ours-qwen3-30b-a3b.json"
    p = subprocess.run([str(binary), "bench", "--model", str(folder), "--random-weights", str(RANDOM_WEIGHTS_SEED),
                        "--prefill-len", str(PREFILL), "--ttft-len", str(TTFT), "--context", str(CONTEXT), "--steps",
                        str(STEPS), "--batches", ",".join(map(str, MOE_BATCHES)), "--profile", "--marginal", "--json",
                        str(out)],
                       capture_output=True, text=True, timeout=1200)
    print(p.stdout, p.stderr, sep="", flush=True)
    if p.returncode != 0 or "no CUDA graph" in p.stderr or "weights: random (seed" not in p.stdout:
        print(f"bench: cute-cpp-qwen3 bench --random-weights failed on {label}", flush=True)
        return 1
    ours = {f["name"] + "|" + f["shape"]: f for f in json.loads(out.read_text())}
    prefill = ours[f"qwen3 prefill|1 x {PREFILL}"]
    if "prefill" in ref:
        records.append({"kernel": f"{label} prefill", "shape": f"1 x {PREFILL} (random weights)", "dtype": "bf16",
                        "ours": prefill["value"], "reference": "transformers eager",
                        "reference_value": ref["prefill"][0], "unit": "tok/s",
                        "ratio": prefill["value"] / ref["prefill"][0], "microseconds": prefill["ms"] * 1e3})
    print(f"{label} prefill {PREFILL}: ours {prefill['value']:.0f} tok/s, transformers "
          f"{ref['prefill'][0] if 'prefill' in ref else float('nan'):.0f}", flush=True)
    for b in MOE_BATCHES:
        decode = ours[f"qwen3 decode|batch {b}, context {CONTEXT}"]
        shape = f"batch {b}, context {CONTEXT} (random weights)"
        reference = ref[f"decode{b}"][0] if f"decode{b}" in ref else float("nan")
        if f"decode{b}" in ref:
            records.append({"kernel": f"{label} decode", "shape": shape, "dtype": "bf16", "ours": decode["value"],
                            "reference": "transformers eager", "reference_value": reference, "unit": "tok/s",
                            "ratio": decode["value"] / reference, "microseconds": decode["ms"] * 1e3})
        weights = moe_weight_bytes_per_step(config, b)
        limit = b * bandwidth / weights
        records.append({"kernel": f"{label} decode vs weight-bandwidth limit", "shape": shape, "dtype": "bf16",
                        "ours": decode["value"], "reference": "tokens x copy bandwidth / weight bytes a step",
                        "reference_value": limit, "unit": "tok/s", "ratio": decode["value"] / limit,
                        "microseconds": decode["ms"] * 1e3})
        print(f"{label} decode batch {b}: ours {decode['value']:.0f} tok/s, transformers {reference:.0f}; "
              f"{weights / 1e9:.2f} GB of weights a step: limit {limit:.0f} tok/s (ours {decode['value'] / limit:.2f})",
              flush=True)
    phase_records(config, ours.values(), records, f"{label} decode phase", "random weights", bandwidth)
    phase_records(config, ours.values(), records, f"{label} decode marginal phase", "random weights", bandwidth,
                  figure="qwen3 decode marginal phase")
    return moe_fused(binary, folder, work, config, bandwidth, ours, records)


def moe_fused(binary, folder, work, config, bandwidth, ours, records):
    """Qwen3-30B-A3B's batch-1 decode with --fused-steps (the step as one launch, sparse layers included)
    beside the layered step of moe_bench's run and beside the limit; 0, or 1 if the bench failed."""
    label = "qwen3-30b-a3b"
    out = work / "ours-qwen3-30b-a3b-fused.json"
    p = subprocess.run([str(binary), "bench", "--model", str(folder), "--random-weights", str(RANDOM_WEIGHTS_SEED),
                        "--prefill-len", "64", "--ttft-len", "64", "--context", str(CONTEXT), "--steps", str(STEPS),
                        "--batches", "1", "--fused-steps", "--json", str(out)], capture_output=True, text=True,
                       timeout=900)
    print(p.stdout, p.stderr, sep="", flush=True)
    if p.returncode != 0 or "no CUDA graph" in p.stderr or "decode steps stay layered" in p.stderr:
        print(f"bench: cute-cpp-qwen3 bench --fused-steps failed on {label}", flush=True)
        return 1
    key = f"qwen3 decode|batch 1, context {CONTEXT}"
    fused, layered = json.loads(out.read_text()), ours[key]
    fused = {f["name"] + "|" + f["shape"]: f for f in fused}[key]
    shape = f"batch 1, context {CONTEXT} (random weights)"
    limit = bandwidth / moe_weight_bytes_per_step(config, 1)
    records.append({"kernel": f"{label} decode with fused steps", "shape": shape, "dtype": "bf16",
                    "ours": fused["value"], "reference": "the layered step's graph", "reference_value": layered["value"],
                    "unit": "tok/s", "ratio": fused["value"] / layered["value"], "microseconds": fused["ms"] * 1e3})
    records.append({"kernel": f"{label} decode vs weight-bandwidth limit, fused steps", "shape": shape,
                    "dtype": "bf16", "ours": fused["value"], "reference": "tokens x copy bandwidth / weight bytes a step",
                    "reference_value": limit, "unit": "tok/s", "ratio": fused["value"] / limit,
                    "microseconds": fused["ms"] * 1e3})
    print(f"{label} decode batch 1 with fused steps: {fused['value']:.0f} tok/s, layered {layered['value']:.0f}; "
          f"limit {limit:.0f} tok/s (fused {fused['value'] / limit:.2f})", flush=True)
    return 0


def tp_bench(binary, size, config, n, work):
    """`bench --random-weights --profile` of one config at N ranks (N = 1: the one-device model): its
    decode figures {batch: (tok/s, ms)} and profiled phases {batch: {phase: us}}, or None if it failed."""
    from tp_plan import parse_profile
    folder = work / f"qwen3-{size}-config-only"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "config.json").write_text(json.dumps(config, indent=1) + "\n")
    out = work / f"ours-tp-{size}-n{n}.json"
    p = subprocess.run([str(binary), "bench", "--model", str(folder), "--random-weights", str(RANDOM_WEIGHTS_SEED),
                        "--prefill-len", "64", "--ttft-len", "64", "--context", str(CONTEXT), "--steps", str(STEPS),
                        "--batches", ",".join(map(str, TP_DECODE_BATCHES)), "--profile",
                        *(["--tensor-parallel", str(n)] if n > 1 else []), "--json", str(out)],
                       capture_output=True, text=True, timeout=600)
    print(p.stdout, p.stderr, sep="", flush=True)
    if p.returncode != 0 or "no CUDA graph" in p.stderr or "weights: random (seed" not in p.stdout:
        print(f"bench: cute-cpp-qwen3 bench --random-weights failed on Qwen3-{size.upper()} at N = {n}", flush=True)
        return None
    ours = {f["name"] + "|" + f["shape"]: f for f in json.loads(out.read_text())}
    decode = {b: (ours[f"qwen3 decode|batch {b}, context {CONTEXT}"]["value"],
                  ours[f"qwen3 decode|batch {b}, context {CONTEXT}"]["ms"]) for b in TP_DECODE_BATCHES}
    return decode, parse_profile(p.stdout)


def tp_decode(opts, binary, work, records):
    """--tensor-parallel-decode: each size at N = 1 and its TP_DECODE_RANKS within the visible GPUs, into
    `records`; 0, 1 if a bench failed, or check_report.NOT_RUN_EXIT with fewer than 2 GPUs."""
    import tp_plan
    from check_qwen3 import configs_folder
    gpus = tp_plan.visible_gpus()
    if gpus < 2:
        print(f"bench: NOT RUN: {gpus} GPU(s) visible; tensor-parallel decode needs at least 2", flush=True)
        return 3  # check_report.NOT_RUN_EXIT: scripts/gpu-check lists it as not run
    bandwidth = copy_bandwidth()
    print(f"{gpus} GPUs; device copy bandwidth (GPU 0): {bandwidth / 1e12:.2f} TB/s; link {opts.link_gbps} GB/s "
          f"(assumed); NCCL_NVLS_ENABLE={os.environ.get('NCCL_NVLS_ENABLE', '(unset)')}", flush=True)
    failed = 0
    for size in opts.tensor_parallel_decode:
        label = f"Qwen3-{size.upper()}"
        try:
            config = json.loads((configs_folder(opts.configs_dir, [size]) / f"qwen3-{size}.json").read_text())
        except FileNotFoundError as e:
            print(f"bench: {e}", flush=True)
            failed = 1
            continue
        one = tp_bench(binary, size, config, 1, work)
        failed |= one is None  # the N-GPU figures are still recorded beside the bound
        for n in tp_plan.ranks_within(gpus, TP_DECODE_RANKS[size]):
            got = tp_bench(binary, size, config, n, work)
            if got is None:
                failed = 1
                continue
            decode, profile = got
            for b in TP_DECODE_BATCHES:
                traffic = tp_plan.rank_step_traffic(config, n, b)
                bound = tp_plan.step_seconds_bound(traffic, bandwidth, opts.link_gbps * 1e9, 0.0)
                share = tp_plan.collective_share(profile.get(b, {}))
                records += tp_plan.tp_decode_records(label, n, b, CONTEXT, decode[b], one and one[0][b], bound, share)
                implied = (decode[b][1] * 1e-3 - bound) / (traffic[1] + 1) * 1e6
                print(f"{label} N={n} batch {b}: {decode[b][0]:.0f} tok/s"
                      + (f", 1 GPU {one[0][b][0]:.0f} ({decode[b][0] / one[0][b][0]:.2f}x)" if one else "")
                      + f"; bound without latency {bound * 1e3:.3f} ms a step ({traffic[0] / 1e9:.2f} GB of weights "
                      f"a rank), measured {decode[b][1]:.3f} ms: {implied:.1f} us a collective over the bound's "
                      f"{traffic[1] + 1}; collectives "
                      + (f"{share[0]:.0f} of {share[1]:.0f} us of the profiled step ({share[0] / share[1]:.0%})"
                         if share else "not in the profile (no all-reduce marks)"), flush=True)
    return failed


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", required=True)
    ap.add_argument("--work", default=None)
    ap.add_argument("--json", default=None)
    ap.add_argument("--layers", type=int, default=QWEN3_8B["num_hidden_layers"])
    ap.add_argument("--decode-limit-configs", default=None, metavar="SIZE,...",
                    help="published configs (0.6b,1.7b,4b,8b,14b,32b) to time decode at batch 1 beside the "
                         "weight-bandwidth limit, with random weights from config.json alone")
    ap.add_argument("--configs-dir", default=None, help="the folder of qwen3-<size>.json (as check_qwen3.py)")
    ap.add_argument("--only-decode-limit", action="store_true", help="skip the Qwen3-8B comparison with transformers")
    ap.add_argument("--moe", action="store_true", help="Qwen3-30B-A3B at full size (random weights) beside "
                                                       "transformers and the weight-bandwidth limit")
    ap.add_argument("--only-moe", action="store_true", help="the --moe figures alone")
    ap.add_argument("--tensor-parallel-decode", default=None, metavar="SIZE,...",
                    help="decode of these published configs (8b,32b,30b-a3b) at N = 1 and N GPUs over NCCL "
                         "(those figures alone)")
    ap.add_argument("--link-gbps", type=float, default=LINK_GBPS,
                    help="the GPUs' link bandwidth for the tensor-parallel step bound (GB/s)")
    opts = ap.parse_args()
    if opts.only_decode_limit and not opts.decode_limit_configs:
        ap.error("--only-decode-limit needs --decode-limit-configs")
    opts.moe = opts.moe or opts.only_moe
    if opts.decode_limit_configs:
        from check_qwen3 import family_sizes  # sizes as check_qwen3.py --family takes them
        try:
            opts.decode_limit_configs = family_sizes(opts.decode_limit_configs)
        except argparse.ArgumentTypeError as e:
            ap.error(f"--decode-limit-configs: {e}")
    binary = Path(opts.build) / "models/qwen3/cute-cpp-qwen3"
    work = Path(opts.work or tempfile.mkdtemp(prefix="qwen3-bench-"))
    records = []
    failed = 0
    if opts.tensor_parallel_decode:
        sizes = [s.strip().lower().removeprefix("qwen3-") for s in opts.tensor_parallel_decode.split(",")]
        unknown = [s for s in sizes if s not in TP_DECODE_RANKS]
        if unknown or not sizes:
            ap.error(f"--tensor-parallel-decode: {unknown}: expected some of {','.join(TP_DECODE_RANKS)}")
        opts.tensor_parallel_decode = sizes
        failed = tp_decode(opts, binary, work, records)
        if opts.json:
            Path(opts.json).write_text(json.dumps(records, indent=1) + "\n")
        return failed
    if not opts.only_decode_limit and not opts.only_moe:
        failed |= compare_with_transformers(opts, binary, work, records)
    if opts.decode_limit_configs and not opts.only_moe:
        failed |= decode_limit(opts, binary, work, records)
    if opts.moe:
        failed |= moe_bench(opts, binary, work, records)
    if opts.json:
        Path(opts.json).write_text(json.dumps(records, indent=1) + "\n")
    return failed


if __name__ == "__main__":
    sys.exit(main())
