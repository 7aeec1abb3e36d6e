# SPDX-License-Identifier: Apache-2.0
"""The host arithmetic of the several-GPU checks and benchmark of cute-cpp-qwen3 --tensor-parallel
(check_qwen3_tp_gpus.py, bench_qwen3.py --tensor-parallel-decode; tensor_parallel.md): which N a machine
and a model allow, one rank's decode-step traffic and its time bound (tensor_parallel.cpp's
decode_step_traffic and decode_step_seconds_bound, which the program does not print), the collectives'
share of a profiled step, and the benchmark's records. No torch: CPU-tested by
tests/cpu/models/qwen3_tp_scripts_test.py."""
import os
import re
import subprocess

RANKS_WANTED = (2, 4, 8)  # the rank counts issue 49 asks for, each run where the machine has the GPUs


def gpus_from_nvidia_smi(listing, visible=None):
    """GPUs a CUDA program sees: the `GPU i: ... (UUID: GPU-...)` lines of `nvidia-smi -L`, restricted
    to CUDA_VISIBLE_DEVICES (`visible`) where set: its entries (an index or a UUID prefix) up to the
    first that names no listed GPU, as CUDA reads it."""
    listed = [line.strip() for line in listing.splitlines() if re.match(r"GPU \d+:", line.strip())]
    if visible is None:
        return len(listed)
    uuids = [m[1] if (m := re.search(r"\(UUID: ([^)]+)\)", line)) else "" for line in listed]
    count = 0
    for entry in (e.strip() for e in visible.split(",")):
        named = int(entry) < len(listed) if entry.isdigit() else bool(entry) and any(
            u.startswith(entry) for u in uuids if u)
        if not named:
            break
        count += 1
    return count


def visible_gpus():
    """The GPUs this process's CUDA programs see: torch's count where torch has CUDA, else nvidia-smi's
    (0 where neither answers)."""
    try:
        import torch
        if torch.cuda.is_available():
            return int(torch.cuda.device_count())
    except ImportError:
        pass
    try:
        done = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return 0
    return gpus_from_nvidia_smi(done.stdout, os.environ.get("CUDA_VISIBLE_DEVICES")) if done.returncode == 0 else 0


def ranks_within(gpus, wanted=RANKS_WANTED):
    """The rank counts of `wanted` this machine can run: N > 1 and N <= gpus."""
    return [n for n in wanted if 1 < n <= gpus]


def splits(config, n):
    """Whether N ranks split a Qwen3 config (config.json's keys) by check_tensor_parallel's rules:
    tp.q-heads (N divides the query heads), tp.kv-heads (N divides the kv heads or they divide N),
    tp.intermediate (F / N a multiple of 8, for a model with a dense MLP), tp.experts (N divides
    num_experts). The program is the authority; this picks the N a check runs."""
    heads, kv = config["num_attention_heads"], config["num_key_value_heads"]
    if heads % n or (kv % n and n % kv):
        return False
    dense = not config.get("num_experts") or config.get("mlp_only_layers") or config.get("decoder_sparse_step", 1) > 1
    if dense and (config["intermediate_size"] % n or (config["intermediate_size"] // n) % 8):
        return False
    return not config.get("num_experts") or config["num_experts"] % n == 0


def too_many_ranks(gpus):
    """A rank count past the GPUs present that still splits Qwen3-8B (32 q heads, 8 kv heads): the
    smallest power of two above `gpus` (tp.gpus, not another rule, must refuse it)."""
    n = 2
    while n <= gpus:
        n *= 2
    return n


def sparse_layer(config, layer):
    return (bool(config.get("num_experts")) and layer not in config.get("mlp_only_layers", [])
            and (layer + 1) % config.get("decoder_sparse_step", 1) == 0)


def rank_step_traffic(config, n, batch):
    """Rank 0's traffic in a decode step of `batch` tokens at N ranks, as tensor_parallel.cpp's
    decode_step_traffic counts it (bf16): (weight bytes read, all-reduces, all-reduce wire bytes,
    gather wire bytes). Weights: the rank's q heads and kv heads (split when N divides them, else one
    replicated), its F / N intermediate rows, its ceil(V / N) vocabulary rows of the LM head (the
    embedding's batch rows gathered), the norms and router whole, and its E / N experts each chosen by
    some token with probability 1 - (1 - k / E)^B (uniform routing). At N = 1 it equals bench_qwen3.py's
    weight_bytes_per_token (batch 1) and moe_weight_bytes_per_step."""
    c, d, layers = config["hidden_size"], config["head_dim"], config["num_hidden_layers"]
    heads, kv = config["num_attention_heads"] // n, config["num_key_value_heads"]
    kv = kv // n if kv % n == 0 else 1
    vocab_rows = -(-config["vocab_size"] // n)
    total = 0.0
    for layer in range(layers):
        total += (heads + 2 * kv) * d * c + c * heads * d + 2 * c + 2 * d
        if sparse_layer(config, layer):
            experts, k = config["num_experts"], config["num_experts_per_tok"]
            chosen = 1 - (1 - k / experts) ** batch
            total += experts * c + chosen * (experts // n) * 3 * config["moe_intermediate_size"] * c
        else:
            total += 3 * (config["intermediate_size"] // n) * c
    total += c + batch * c + min(vocab_rows, config["vocab_size"]) * c  # final norm, embedding rows, LM head
    if n == 1:
        return 2 * total, 0, 0.0, 0.0
    allreduces = 2 * layers + 1
    wire = allreduces * batch * c * 2 * 2 * (n - 1) / n
    return 2 * total, allreduces, wire, float((n - 1) * batch * vocab_rows * 2)


def step_seconds_bound(traffic, memory_bytes_per_s, link_bytes_per_s, collective_latency_s):
    """decode_step_seconds_bound: the weights at memory bandwidth, the collectives' wire bytes at link
    bandwidth, and a latency for each collective (the all-reduces and the logits gather)."""
    weights, allreduces, wire, gather = traffic
    collectives = allreduces + 1 if allreduces else 0
    return (weights / memory_bytes_per_s + ((wire + gather) / link_bytes_per_s if wire + gather else 0.0)
            + collectives * collective_latency_s)


PROFILE_LINE = re.compile(r"profile batch (\d+): (.*\S)\s+(-?[\d.]+|nan|inf) us(?: per step \((\d+) per step\))?$")
COLLECTIVE_PHASES = ("all-reduce", "all-gather")  # the marks a rank adds after its collectives


def parse_profile(text):
    """bench --profile's lines: {batch: {phase: microseconds a step}}, "total" among them."""
    phases = {}
    for line in text.splitlines():
        m = PROFILE_LINE.match(line.strip())
        if m:
            phases.setdefault(int(m[1]), {})[m[2]] = float(m[3])
    return phases


def collective_share(phases):
    """(microseconds of the collectives a step, the profiled step's total), or None where the profile
    has no collective phase (one device, or a program without the marks)."""
    found = [phases[p] for p in COLLECTIVE_PHASES if p in phases]
    if not found or not phases.get("total"):
        return None
    return sum(found), phases["total"]


def tp_decode_records(label, n, batch, context, ours, one_gpu, bound_s, share):
    """The benchmark's records of one model, N and batch (the repository's record format): decode tok/s
    against one GPU's (`one_gpu`: (tok/s, ms) or None where the one-GPU run failed), against the step
    bound `bound_s`, and the collectives' share of a profiled step (`share`: collective_share's pair)."""
    value, ms = ours
    shape = f"{label}, N={n}, batch {batch}, context {context} (random weights)"
    records = []
    if one_gpu is not None:
        records.append({"kernel": "tensor parallel qwen3 decode", "shape": shape, "dtype": "bf16", "ours": value,
                        "reference": "1 GPU", "reference_value": one_gpu[0], "unit": "tok/s",
                        "ratio": value / one_gpu[0], "microseconds": ms * 1e3})
    limit = batch / bound_s
    records.append({"kernel": "tensor parallel qwen3 decode vs step bound", "shape": shape, "dtype": "bf16",
                    "ours": value, "reference": "batch / decode_step_seconds_bound", "reference_value": limit,
                    "unit": "tok/s", "ratio": value / limit, "microseconds": ms * 1e3})
    if share is not None:
        collectives, total = share
        records.append({"kernel": "tensor parallel qwen3 decode collectives", "shape": shape, "dtype": "bf16",
                        "ours": collectives, "reference": "profiled step (bench --profile, rank 0)",
                        "reference_value": total, "unit": "us", "ratio": collectives / total,
                        "microseconds": collectives})
    return records
