#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The Qwen3-8B benchmark of issue 21: cute-cpp-qwen3 beside transformers (eager, bf16) on the same
full-size checkpoint, in the same run.

    bench_qwen3.py --build DIR [--work DIR] [--json FILE] [--layers N]

Real weights cannot be downloaded on the lent machine, so the checkpoint is Qwen3-8B's exact
config with random weights, built on the GPU by transformers and saved sharded as the hub
publishes it (the figures do not depend on the values). Figures: prefill of 2048 tokens (tok/s),
time to first token for 512 tokens (ms), decode at batch 1 and 32 after a 512-token context
(tok/s, each step drawing its token greedily), and the load time. The bandwidth limit of batch-1
decode is the weights' bytes over the measured device-copy ceiling (4.16 TB/s): 254 tok/s.
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


def reference_figures(model):
    """transformers eager: the same figures as the program's bench command."""
    import torch
    vocab = model.config.vocab_size
    gen = torch.Generator(device="cuda").manual_seed(1)
    ids = lambda b, n: torch.randint(0, vocab, (b, n), device="cuda", generator=gen)
    figures = {}
    with torch.inference_mode():
        x = ids(1, PREFILL)
        model(x)  # warm-up
        ms = time_cuda(lambda: model(x, logits_to_keep=1), 3)
        figures["prefill"] = (PREFILL / ms * 1e3, ms)
        x = ids(1, TTFT)
        ms = time_cuda(lambda: model(x, logits_to_keep=1).logits[:, -1].argmax(-1).item(), 3)
        figures["ttft"] = (ms, ms)
        for b in BATCHES:
            x = ids(b, CONTEXT)
            mask = torch.ones_like(x)
            kw = dict(do_sample=False, min_new_tokens=STEPS, max_new_tokens=STEPS, pad_token_id=0, eos_token_id=None,
                      attention_mask=mask)
            model.generate(x, **dict(kw, min_new_tokens=4, max_new_tokens=4))  # warm-up
            t_prefill = time_cuda(lambda: model(x, logits_to_keep=1), 1)
            t_all = time_cuda(lambda: model.generate(x, **kw), 1)
            step = (t_all - t_prefill) / (STEPS - 1)
            figures[f"decode{b}"] = (b / step * 1e3, step)
    return figures


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", required=True)
    ap.add_argument("--work", default=None)
    ap.add_argument("--json", default=None)
    ap.add_argument("--layers", type=int, default=QWEN3_8B["num_hidden_layers"])
    opts = ap.parse_args()
    binary = Path(opts.build) / "models/qwen3/cute-cpp-qwen3"
    work = Path(opts.work or tempfile.mkdtemp(prefix="qwen3-bench-"))
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
                        ",".join(map(str, BATCHES)), "--json", str(ours_json)], capture_output=True, text=True,
                       timeout=900)
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
    records = []
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
    # The decode step's graph without programmatic dependent launch (and without the GEMMs' early
    # weight loads, which need it), for what PDL buys.
    plain_json = work / "ours-no-pdl.json"
    p = subprocess.run([str(binary), "bench", "--model", str(folder), "--prefill-len", "64", "--ttft-len", "64",
                        "--context", str(CONTEXT), "--steps", str(STEPS), "--batches", ",".join(map(str, BATCHES)),
                        "--no-pdl", "--json", str(plain_json)], capture_output=True, text=True, timeout=900)
    if p.returncode != 0 or "no CUDA graph" in p.stderr:
        print(p.stdout, p.stderr, "bench: cute-cpp-qwen3 bench --no-pdl failed", sep="", flush=True)
        return 1
    plain = {f["name"] + "|" + f["shape"]: f for f in json.loads(plain_json.read_text())}
    for b in BATCHES:
        key = f"qwen3 decode|batch {b}, context {CONTEXT}"
        with_pdl, without = ours[key], plain[key]
        records.append({"kernel": f"qwen3 decode with PDL (Qwen3-8B, {opts.layers} layers)", "shape": shape_of[f"decode{b}"],
                        "dtype": "bf16", "ours": with_pdl["value"], "reference": "the same graph without PDL",
                        "reference_value": without["value"], "unit": "tok/s",
                        "ratio": with_pdl["value"] / without["value"], "microseconds": with_pdl["ms"] * 1e3})
        print(f"qwen3 decode batch {b}: with PDL {with_pdl['value']:.1f} tok/s, without {without['value']:.1f}",
              flush=True)
    if opts.json:
        Path(opts.json).write_text(json.dumps(records, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
