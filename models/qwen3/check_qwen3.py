#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: 2026 cute-cpp authors
"""GPU check of the end-to-end Qwen3 decoder (models/qwen3/cute-cpp-qwen3) against Hugging Face transformers.

  check_qwen3.py --build BUILD [--work DIR] [--json FILE] [--family all|none|SIZE,...] [--no-toys]
                 [--configs-dir DIR]

Runs BUILD/models/qwen3/cute-cpp-qwen3 as a subprocess and compares what it prints and writes with
transformers' Qwen3ForCausalLM or Qwen3MoeForCausalLM (eager attention) on the same checkpoints. Prints one line per check,
`check <name>: pass|FAIL (<figures>)`, then `N passed, N failed`; exits 0 iff every check passes.

Checkpoints (random weights, bf16, written by transformers' save_pretrained, so tensor names, config.json
and the sharded index are what a real export has):
  tiny-tied     2 layers, hidden 256, 4 heads / 2 KV heads of 64, FFN 768, vocab 1000, tied, one file
  small-untied  3 layers, hidden 512, 8 heads / 2 KV heads of 128, FFN 1536, vocab 4096, untied, >= 3 shards
  tiny-yarn     tiny-tied's widths with YaRN as Qwen documents it for long context, in miniature: config.json
                given "rope_scaling": {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings":
                256} and max_position_embeddings 2048 (not 4 x 256: the factor as written, 4, and the ratio
                transformers 4.x used, 8, give other frequencies, so the check tells them apart); the logits
                check only, on prompts of 512 and 300 ids (both past position 256, where YaRN's interpolated
                frequencies matter).
  tiny-moe      a Qwen3-MoE in miniature (transformers' Qwen3MoeForCausalLM): 3 layers of tiny-tied's
                attention widths, 64 experts of width 96 and top 4 without renormalization, layer 1 a dense
                MLP (mlp_only_layers [1]), untied: other expert counts than the published model's.
  Qwen3-<size>  each Qwen3 config published in shared/models (qwen3-0.6b.json to qwen3-32b.json, and the
                MoE qwen3-30b-a3b.json: 128 experts of width 768, top 8) with its published widths, vocab (151936),
                tie_word_embeddings, rope_theta, rms_norm_eps and max_position_embeddings, at 4 layers
                (Qwen3-0.6B at its full 28): 1.0 GB (1.7B) to 7.0 GB (32B), 6 GB (30B-A3B). Built in bf16 on the GPU just
                before its checks, saved in shards of at most 5 GB, deleted after its checks if they pass.
Weights are N(0, 0.05); every RMSNorm weight (the layer norms, q_norm, k_norm, the final norm) is
gain * (1 + 0.1 N(0, 1)), so a norm that is skipped or applied over the wrong axis shows. The gains:
q_norm/k_norm 1.0, so that attention is peaked enough that RoPE and the KV cache matter (at 1.5 the
model amplified bf16 rounding so much that transformers' own bf16 logits fell below cosine 0.999 against
fp32, and no bf16 implementation could pass the check); the final norm 4 / (0.05 sqrt(hidden)), so
that logits have a standard deviation of about 4 at every hidden size and vocab (the logits check prints
it), so that greedy choices are rarely near-ties.
(The final norm, not the output matrix, carries the scale: scaling a tied embedding would also scale
the input embedding, the residual stream would be mostly the last token's embedding, and the tied model
would only repeat its last token.)

Checks, per checkpoint unless noted (the Qwen3-<size> checkpoints have logits, greedy with 32 tokens,
batched-generate and the two graphs checks; tiny-yarn the logits check alone):
  logits.<ckpt>            `logits` of a 512-id and a 77-id prompt in one batch against the float32 model
                           on each prompt alone, beside transformers' own bf16 model on the same prompts.
                           Passes when our rms error against fp32 is at most 2.5x transformers' bf16 one,
                           and our cosine against fp32 at every position is >= 0.999, or >= transformers'
                           own bf16 minimum cosine where that is lower. Both figures and the ratio shown.
  routing-stats.<ckpt>     (MoE) `logits --routing-stats`: a line for each sparse layer and none for a dense
                           one, every expert's count, the counts summing to tokens x top-k.
  logits-batched.<ckpt>    the 77-id prompt alone against its rows of the batched run: cosine >= 0.9999.
  greedy.<ckpt>            128 greedy tokens after 40 random ids against transformers' bf16 generate.
                           Two bf16 implementations may part at a near-tie; where they part, the float32
                           model given the common prefix decides: the step passes if ours is the fp32
                           argmax or the two tokens' fp32 logits differ by less than a tie tolerance:
                           0.05, or 3x the rms of transformers' own bf16 logit error there. Then
                           transformers is restarted from our prefix, so all 128 steps are checked.
  batched-generate.<ckpt>  prompts of 5, 33 and 130 ids generated together (32 greedy tokens) give the
                           same ids as each generated alone, up to a near-tie (the tie tolerance above):
                           decode steps of other batch sizes sum in other orders.
  graphs-vs-eager.<ckpt>   those prompts' decode steps replayed from CUDA graphs and launched eagerly
                           (--eager) give the same ids (the graphs' kernels launched as programmatic
                           dependents, the default); graphs-no-pdl-vs-eager: the same with plain
                           edges (--no-pdl).
  sampling.tiny-tied       T 0.8, top-k 20, top-p 0.9: seed 7 twice gives the same ids, seed 8 others,
                           and every sampled token lies in the kept set of the fp32 logits given the
                           sampled prefix (transformers' order: temperature, top-k, top-p over the top-k).
  bad-input.<case>         an id equal to vocab_size, a negative id, a prompt longer than
                           max_position_embeddings, prompt + new tokens past --max-seq, a llama config and
                           a truncated shard: exit 2 and the rule id on stderr.
A MoE checkpoint is written with one tensor per expert and projection, as the published ones are (a
transformers that saves a layer's experts stacked has them split), and transformers' model loaded from it
must hold every parameter of the model that wrote it, bit for bit.
A checkpoint that cannot be built or loaded by transformers is the failed check checkpoint.<ckpt>; so is
one whose rotary embedding in transformers is not the spec's RoPE (theta; for YaRN its type, the last pair's
frequency theta^(-(d-2)/d) / factor, i.e. the factor as written, and the cos/sin scale 0.1 ln(factor) + 1).
--json writes one record per checkpoint: `qwen3 logits vs transformers fp32`, shape `<ckpt> 512+77`
(`Qwen3-32B (4/64 layers) 512+77` where the depth is reduced; `tiny-yarn 512+300`), the minimum cosine.

Options: --family picks the published configs: sizes as a comma list (0.6b,1.7b,4b,8b,14b,32b,30b-a3b), `all`
(the default) or `none`; --no-toys skips tiny-tied, small-untied, tiny-yarn and tiny-moe, and with them sampling
and bad-input; --configs-dir is the folder of qwen3-<size>.json (default: the first of
<repo>/shared/models and <repo>/../shared/models that holds every selected one). Each checkpoint's wall
time is printed (build, reference load, checks).

Needs torch with CUDA, transformers 5.x (4.x spellings are tried where they differ), safetensors, numpy. The work folder
(default: a temporary one, removed when every check passes) keeps the checkpoints and the program's
outputs for a failed run."""
import argparse
import gc
import inspect
import json
import math
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "common"))
import check_report  # noqa: E402 -- the models' shared check report

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

try:
    import numpy as np
    import torch
    import transformers
    from transformers import Qwen3Config, Qwen3ForCausalLM, Qwen3MoeConfig, Qwen3MoeForCausalLM
except ImportError as e:
    print(f"FAIL: {e}: check_qwen3.py needs numpy, torch (with CUDA), transformers and safetensors", file=sys.stderr)
    sys.exit(1)

# ---- settings ----

SEED = 20261201
ROPE_THETA = 1e6
RMS_NORM_EPS = 1e-6
INIT_STD = 0.05        # every projection and embedding weight: N(0, INIT_STD)
NORM_JITTER = 0.1      # every RMSNorm weight: gain * (1 + NORM_JITTER * N(0, 1))
QK_NORM_GAIN = 1.0     # attention logits of std ~ QK_NORM_GAIN^2: peaked enough that positions matter
LOGIT_STD = 4.0        # the final norm's gain is chosen to give logits of about this std

COSINE_VS_FP32 = 0.999      # bf16 logits against the fp32 model, every position (or transformers' bf16 minimum)
RMS_VS_BF16 = 2.5           # our rms logit error against fp32 at most this many times transformers' bf16 one
COSINE_BATCHED = 0.9999     # one prompt alone against the same prompt in a batch, every position
OUTLIERS_VS_BF16 = 2        # where bf16 has positions under COSINE_VS_FP32: ours at most this many times as many
OUTLIER_SLACK = 2           # ... plus this many
OUTLIER_DEPTH_VS_BF16 = 2   # ... none with more than this many times bf16's worst shortfall from cosine 1
NEAR_TIE = 0.05             # fp32 logit gap under which two greedy choices are a tie for bf16 ...
NOISE_TIE = 3.0             # ... or under this many times bf16's own logit noise at that step (the rms of
                            # transformers' bf16 logits minus its fp32 ones there)
MAX_DIVERGENCES = 16        # near-ties tolerated in one greedy run before the run counts as failed
SAMPLING_PROB_TOL = 1e-3    # top-p boundary: mass above the token may reach top_p + this
SAMPLING_LOGIT_SLACK = NEAR_TIE  # ... or the token is kept once each fp32 logit moves this far its way
                                 # (or NOISE_TIE / 2 x bf16's logit noise there, where larger)

GREEDY_PROMPT, GREEDY_TOKENS = 40, 128
BATCH_PROMPTS, BATCH_TOKENS = (5, 33, 130), 32
SAMPLING_PROMPT, SAMPLING_TOKENS = 16, 64
SAMPLING = {"temperature": 0.8, "top_k": 20, "top_p": 0.9}
TIMEOUT_S = 300

FAMILY = ("0.6b", "1.7b", "4b", "8b", "14b", "32b", "30b-a3b")  # the configs published as qwen3-<size>.json
# Each checkpoint's index seeds its weights and prompts: the dense sizes 2..7, tiny-yarn 8, then the MoE ones.
FAMILY_INDEX = {**{size: 2 + i for i, size in enumerate(FAMILY[:6])}, "30b-a3b": 9}
FAMILY_LAYERS = 4           # their depth here, except the sizes checked at full depth
FAMILY_FULL_DEPTH = ("0.6b",)
FAMILY_SHARD_SIZE = "5GB"
FAMILY_GREEDY_TOKENS = 32


@dataclass(frozen=True)
class Spec:
    """One random checkpoint: its Qwen3Config fields and how it is saved."""
    name: str
    index: int
    layers: int
    hidden: int
    heads: int
    kv_heads: int
    head_dim: int
    intermediate: int
    vocab: int
    max_positions: int
    tied: bool
    max_shard_size: str | None  # None: one model.safetensors
    min_shards: int = 1
    rope_theta: float = ROPE_THETA
    rms_norm_eps: float = RMS_NORM_EPS
    greedy_tokens: int = GREEDY_TOKENS
    published_layers: int | None = None  # a published config's depth; None for the toy checkpoints
    rope_scaling: tuple = ()             # config.json's rope_scaling as (key, value) pairs; () for plain RoPE
    logits_lengths: tuple = (512, 77)    # the logits check's prompts, run as one batch
    logits_only: bool = False            # the logits check alone (no greedy, batched, sampling checks)
    moe: tuple = ()                      # a Qwen3-MoE config's expert fields as (key, value) pairs; () dense

    @property
    def family(self):
        return self.published_layers is not None

    @property
    def yarn(self):
        """The rope_scaling dict when it is YaRN, else None."""
        scaling = dict(self.rope_scaling)
        return scaling if scaling.get("rope_type") == "yarn" else None

    @property
    def label(self):
        """The name, with the depth where it is less than the published one."""
        if not self.family or self.layers == self.published_layers:
            return self.name
        return f"{self.name} ({self.layers}/{self.published_layers} layers)"

    def config_fields(self):
        """config.json's fields that cute-cpp reads, as a hub Qwen3 (or Qwen3-MoE) config spells them."""
        fields = {"model_type": "qwen3_moe" if self.moe else "qwen3", "vocab_size": self.vocab,
                  "hidden_size": self.hidden, "intermediate_size": self.intermediate,
                  "num_hidden_layers": self.layers, "num_attention_heads": self.heads,
                  "num_key_value_heads": self.kv_heads, "head_dim": self.head_dim,
                  "max_position_embeddings": self.max_positions, "rms_norm_eps": self.rms_norm_eps,
                  "rope_theta": self.rope_theta, "tie_word_embeddings": self.tied}
        fields.update({key: list(value) if isinstance(value, tuple) else value for key, value in self.moe})
        return fields

    @property
    def model_class(self):
        return Qwen3MoeForCausalLM if self.moe else Qwen3ForCausalLM

    @property
    def final_norm_gain(self):
        # logits = W (g * n) with W ~ N(0, INIT_STD) and n of unit RMS: std = INIT_STD * g * sqrt(hidden)
        return LOGIT_STD / (INIT_STD * math.sqrt(self.hidden))


SPECS = [
    Spec("tiny-tied", 0, layers=2, hidden=256, heads=4, kv_heads=2, head_dim=64, intermediate=768, vocab=1000,
         max_positions=1024, tied=True, max_shard_size=None),
    Spec("small-untied", 1, layers=3, hidden=512, heads=8, kv_heads=2, head_dim=128, intermediate=1536, vocab=4096,
         max_positions=2048, tied=False, max_shard_size="4MB", min_shards=3),
    # index 8: after the published dense configs (FAMILY_INDEX)
    Spec("tiny-yarn", 8, layers=2, hidden=256, heads=4, kv_heads=2, head_dim=64, intermediate=768,
         vocab=1000, max_positions=2048, tied=True, max_shard_size=None,
         rope_scaling=(("rope_type", "yarn"), ("factor", 4.0), ("original_max_position_embeddings", 256)),
         logits_lengths=(512, 300), logits_only=True),
    # A Qwen3-MoE in miniature with other expert counts than the published one (64 experts, top 4), the
    # top-k weights not renormalized, and layer 1 dense (mlp_only_layers): nothing may depend on 128 or 8.
    Spec("tiny-moe", 10, layers=3, hidden=256, heads=4, kv_heads=2, head_dim=64, intermediate=768, vocab=1000,
         max_positions=1024, tied=False, max_shard_size=None,
         moe=(("num_experts", 64), ("num_experts_per_tok", 4), ("moe_intermediate_size", 96),
              ("norm_topk_prob", False), ("decoder_sparse_step", 1), ("mlp_only_layers", (1,)))),
]

MOE_KEYS = ("num_experts", "num_experts_per_tok", "moe_intermediate_size", "norm_topk_prob", "decoder_sparse_step",
            "mlp_only_layers")


def family_spec(size, path):
    """A published config (qwen3-<size>.json) at its widths, at FAMILY_LAYERS layers unless full depth."""
    c = json.loads(path.read_text())
    moe = c.get("model_type") == "qwen3_moe"
    expected = {"model_type": "qwen3_moe" if moe else "qwen3", "hidden_act": "silu", "attention_bias": False}
    wrong = {key: c.get(key) for key, value in expected.items() if c.get(key) != value}
    if wrong:
        raise ValueError(f"{path}: not a Qwen3 or Qwen3-MoE config: {wrong}")
    moe_fields = tuple((key, tuple(c[key]) if isinstance(c[key], list) else c[key]) for key in MOE_KEYS) if moe else ()
    published = c["num_hidden_layers"]
    layers = published if size in FAMILY_FULL_DEPTH else min(FAMILY_LAYERS, published)
    # index: the checkpoint and prompts of a size do not depend on which sizes are selected
    return Spec(f"Qwen3-{size.upper()}", FAMILY_INDEX[size], layers=layers, hidden=c["hidden_size"],
                heads=c["num_attention_heads"], kv_heads=c["num_key_value_heads"], head_dim=c["head_dim"],
                intermediate=c["intermediate_size"], vocab=c["vocab_size"],
                max_positions=c["max_position_embeddings"], tied=c["tie_word_embeddings"],
                max_shard_size=FAMILY_SHARD_SIZE, rope_theta=c["rope_theta"], rms_norm_eps=c["rms_norm_eps"],
                greedy_tokens=FAMILY_GREEDY_TOKENS, published_layers=published, moe=moe_fields)


def family_sizes(text):
    """--family: `all`, `none` or a comma list of sizes (0.6b or qwen3-0.6b), in FAMILY's order."""
    text = text.strip().lower()
    if text in ("all", "none"):
        return list(FAMILY) if text == "all" else []
    sizes = [t.strip().removeprefix("qwen3-") for t in text.split(",") if t.strip()]
    unknown = [t for t in sizes if t not in FAMILY]
    if unknown or not sizes:
        raise argparse.ArgumentTypeError(f"{text!r}: expected all, none or a comma list of {', '.join(FAMILY)}")
    return [size for size in FAMILY if size in sizes]


def configs_folder(given, sizes):
    """--configs-dir, else the first of <repo>/shared/models and <repo>/../shared/models holding every
    selected config."""
    root = Path(__file__).resolve().parents[2]
    candidates = [Path(given)] if given else [root / "shared" / "models", root.parent / "shared" / "models"]
    for folder in candidates:
        if all((folder / f"qwen3-{size}.json").is_file() for size in sizes):
            return folder
    raise FileNotFoundError(f"no folder holds qwen3-{{{','.join(sizes)}}}.json; looked in "
                            f"{', '.join(map(str, candidates))} (--configs-dir)")


def rng_for(spec_index, check):
    """Each check draws its prompts from its own stream, so that checks do not depend on each other's order."""
    return np.random.default_rng([SEED, spec_index, check])


def random_ids(rng, vocab, n):
    return [int(t) for t in rng.integers(0, vocab, n)]


# ---- report ----

Report = check_report.Report  # models/common/check_report.py (check_nemotron.py takes it from here)


# ---- the program under test ----

class ProgramError(RuntimeError):
    pass


def ids_argument(prompts):
    """--ids: ',' between ids, ';' between prompts."""
    return ";".join(",".join(str(int(t)) for t in p) for p in prompts)


def shown_command(argv, limit=300):
    text = " ".join(shlex.quote(str(a)) for a in argv)
    return text if len(text) <= limit else text[:limit] + " ..."


def first_line(text):
    for line in text.splitlines():
        if line.strip():
            return line.strip()
    return "(empty)"


class Program:
    def __init__(self, path, work):
        self.path, self.work, self.runs = Path(path), Path(work), 0

    def run(self, args, timeout=TIMEOUT_S):
        """Runs the program; returns the CompletedProcess (text), raising ProgramError on a timeout."""
        argv = [str(self.path), *map(str, args)]
        try:
            return subprocess.run(argv, capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL)
        except subprocess.TimeoutExpired:
            raise ProgramError(f"timed out after {timeout} s: {shown_command(argv)}") from None

    def run_ok(self, args):
        done = self.run(args)
        if done.returncode != 0:
            tail = "\n".join(done.stderr.strip().splitlines()[-5:])
            raise ProgramError(f"exit {done.returncode}: {shown_command([self.path, *args])}: {tail or '(no stderr)'}")
        # The program falls back to eager decode steps when recording one fails; here that is a failure,
        # or the graphs-vs-eager check would compare two eager runs.
        fallback = [line for line in done.stderr.splitlines() if "no CUDA graph" in line]
        if fallback:
            raise ProgramError(f"{shown_command([self.path, *args])}: {fallback[0]}")
        return done

    def logits(self, folder, prompts, vocab):
        """`logits` for the prompts as one batch: float32 [total tokens, vocab]."""
        self.runs += 1
        out = self.work / f"logits-{self.runs}.f32"
        self.run_ok(["logits", "--model", folder, "--ids", ids_argument(prompts), "--out", out])
        total = sum(len(p) for p in prompts)
        expected = total * vocab * 4
        size = out.stat().st_size if out.exists() else -1
        if size != expected:
            raise ProgramError(f"{out.name}: {size} bytes, expected {total} tokens x {vocab} x 4 = {expected}")
        return np.fromfile(out, dtype="<f4").reshape(total, vocab)

    def generate(self, folder, prompts, new_tokens, vocab, extra=()):
        """`generate --ignore-eos` for the prompts as one batch: the generated ids of each prompt."""
        done = self.run_ok(["generate", "--model", folder, "--ids", ids_argument(prompts), "--max-new-tokens",
                            new_tokens, "--ignore-eos", *extra])
        got = parse_generated(done.stdout, len(prompts))
        for i, ids in enumerate(got):
            if len(ids) != new_tokens:
                raise ProgramError(f"prompt {i}: {len(ids)} ids generated, expected {new_tokens} (--ignore-eos)")
            # checked here: an id out of range would be a device-side assert in the reference's embedding
            bad = [t for t in ids if not 0 <= t < vocab]
            if bad:
                raise ProgramError(f"prompt {i}: generated ids outside [0, {vocab}): {bad[:5]}")
        return got


def parse_generated(stdout, count):
    """The `ids i: t1 t2 ...` lines as one list per prompt, in prompt order; other lines are ignored."""
    found = {}
    for line in stdout.splitlines():
        match = re.match(r"ids (\d+):(.*)$", line.rstrip())
        if not match:
            continue
        index = int(match[1])
        try:
            ids = [int(t) for t in match[2].split()]
        except ValueError as e:
            raise ProgramError(f"cannot read the line {line!r}: {e}") from None
        if index in found:
            raise ProgramError(f"two lines for prompt {index}")
        found[index] = ids
    missing = [i for i in range(count) if i not in found]
    extra = sorted(set(found) - set(range(count)))
    if missing or extra:
        raise ProgramError(f"`ids i:` lines missing for prompts {missing}, unexpected for {extra}; "
                           f"stdout began {stdout[:200]!r}")
    return [found[i] for i in range(count)]


# ---- checkpoints ----

def set_random_weights(model, spec):
    """Every weight drawn in float32 from a generator seeded for the spec on the model's device: the CPU
    for the toys, so their checkpoints are the same on every machine; the GPU for the published widths."""
    device = next(model.parameters()).device
    gen = torch.Generator(device=device).manual_seed(SEED + spec.index)

    def normal(shape):
        return torch.randn(shape, generator=gen, device=device, dtype=torch.float32)

    with torch.no_grad():
        for name, p in model.named_parameters():  # a tied lm_head is the embedding: listed once
            if name.endswith("norm.weight"):
                if name.endswith(("q_norm.weight", "k_norm.weight")):
                    gain = QK_NORM_GAIN
                elif name == "model.norm.weight":
                    gain = spec.final_norm_gain
                else:
                    gain = 1.0
                p.copy_(gain * (1 + NORM_JITTER * normal(p.shape)))
            else:
                p.copy_(INIT_STD * normal(p.shape))
    if spec.tied and model.lm_head.weight.data_ptr() != model.model.embed_tokens.weight.data_ptr():
        model.tie_weights()
        if model.lm_head.weight.data_ptr() != model.model.embed_tokens.weight.data_ptr():
            raise RuntimeError("tie_word_embeddings is set but lm_head.weight is not the embedding")


def rope_theta_in_use(model, head_dim):
    """theta as the model's rotary inv_freq has it (inv_freq[1] = theta^(-2/head_dim)); None if not found."""
    inv_freq = getattr(getattr(model.model, "rotary_emb", None), "inv_freq", None)
    if inv_freq is None:
        return None
    return float(inv_freq[1].double().cpu()) ** (-head_dim / 2)


def check_rope(model, spec):
    """transformers' rotary embedding has the spec's RoPE: theta (from inv_freq[1]) for plain RoPE; for YaRN
    its type, the last pair's frequency, which lies past the correction range and so is plain RoPE's divided
    by the factor transformers uses (the one written; versions before huggingface/transformers#40320 took
    max_position_embeddings / original_max_position_embeddings), and the cos/sin scale 0.1 ln(factor) + 1."""
    yarn = spec.yarn
    if yarn is None:
        theta = rope_theta_in_use(model, spec.head_dim)
        if theta is not None and abs(theta / spec.rope_theta - 1) > 1e-3:
            raise RuntimeError(f"transformers' rotary embedding uses theta {theta:.6g}, not {spec.rope_theta:g}")
        return
    rotary = model.model.rotary_emb
    kind = getattr(rotary, "rope_type", None)
    if kind != "yarn":
        raise RuntimeError(f"transformers' rotary embedding is of type {kind!r}, not 'yarn'")
    factor, d = yarn["factor"], spec.head_dim
    last = float(rotary.inv_freq[-1].double().cpu())
    expected = spec.rope_theta ** (-(d - 2) / d) / factor
    if abs(last / expected - 1) > 1e-5:
        raise RuntimeError(f"transformers' last YaRN frequency is {last:.7g}, expected {expected:.7g} "
                           f"(theta {spec.rope_theta:g}, factor {factor:g})")
    scale, expected_scale = float(rotary.attention_scaling), 0.1 * math.log(factor) + 1
    if abs(scale - expected_scale) > 1e-6:
        raise RuntimeError(f"transformers' YaRN cos/sin scale is {scale:.7g}, expected {expected_scale:.7g}")


def make_config(spec):
    fields = spec.config_fields()
    fields.pop("model_type")
    theta = fields.pop("rope_theta")
    config_class = Qwen3MoeConfig if spec.moe else Qwen3Config
    config = config_class(**fields, initializer_range=INIT_STD, hidden_act="silu", attention_bias=False,
                          use_sliding_window=False, eos_token_id=None, bos_token_id=None, pad_token_id=None)
    rope = getattr(config, "rope_parameters", None)
    if isinstance(rope, dict):  # transformers 5: rope_parameters {"rope_type": "default", "rope_theta": ...}
        rope["rope_theta"] = theta
        rope.setdefault("rope_type", "default")
        rope.update(spec.rope_scaling)  # YaRN: its type, factor and original length (before the model reads them)
    else:  # transformers 4
        config.rope_theta = theta
        if spec.rope_scaling:
            config.rope_scaling = dict(spec.rope_scaling)
    return config


def same_value(a, b):
    """Equal, numbers by value (a published rope_theta is the integer 1000000), anything else with its type."""
    def number(x):
        return isinstance(x, (int, float)) and not isinstance(x, bool)
    if number(a) and number(b):
        return math.isclose(a, b)
    return a == b and type(a) is type(b)


def normalise_config_json(folder, spec):
    """Gives config.json the fields a hub Qwen3 config has and cute-cpp reads (transformers 5 keeps
    rope_theta inside rope_parameters; hub configs have it at the top). Returns the keys added."""
    path = folder / "config.json"
    config = json.loads(path.read_text())
    added = []
    for key, value in spec.config_fields().items():
        if key not in config:
            config[key] = value
            added.append(key)
        elif not same_value(config[key], value):
            raise RuntimeError(f"{path}: {key} is {config[key]!r}, expected {value!r}")
    if "dtype" not in config and "torch_dtype" not in config:
        config["torch_dtype"] = "bfloat16"
        added.append("torch_dtype")
    scaling = config.get("rope_scaling")
    if spec.rope_scaling:
        config["rope_scaling"] = dict(spec.rope_scaling)  # added by hand, as Qwen documents it for long context
        added.append(f"rope_scaling {config['rope_scaling']}")
    elif isinstance(scaling, dict) and scaling.get("rope_type", scaling.get("type")) == "default":
        config["rope_scaling"] = None  # plain RoPE spelled as a dict: hub configs say null
        added.append("rope_scaling (null)")
    path.write_text(json.dumps(config, indent=2) + "\n")
    return added


def new_model(spec):
    """transformers' model of the spec, weights not yet drawn: the toys in float32 on the CPU (as they have
    always been built), the published widths directly in bf16 on the GPU (4 layers of Qwen3-32B are 3.5 G
    parameters). The rotary inv_freq is float32 either way (transformers computes it in float32)."""
    config = make_config(spec)
    if not spec.family:
        return spec.model_class(config).eval()
    default = torch.get_default_dtype()
    torch.set_default_dtype(torch.bfloat16)  # what from_pretrained does for a bf16 load
    try:
        with torch.device("cuda"):
            return spec.model_class(config).eval()
    finally:
        torch.set_default_dtype(default)


def check_file_layout(spec, folder):
    """The safetensors files: one model.safetensors without max_shard_size, an index and >= min_shards
    shards where asked, either otherwise (save_pretrained writes one file when the model fits one shard)."""
    shards = sorted(folder.glob("*.safetensors"))
    names = [s.name for s in shards]
    sharded = (folder / "model.safetensors.index.json").exists()
    single = not sharded and names == ["model.safetensors"]
    if spec.max_shard_size is None and not single:
        raise RuntimeError(f"{folder}: expected one model.safetensors, found {names}")
    if spec.min_shards > 1 and (not sharded or len(shards) < spec.min_shards):
        raise RuntimeError(f"{folder}: expected an index and >= {spec.min_shards} shards, found {names}")
    if not single and not (sharded and shards):
        raise RuntimeError(f"{folder}: expected model.safetensors or an index and its shards, found {names}")
    return shards


def build_checkpoint(spec, folder):
    """Writes the random bf16 checkpoint with save_pretrained and checks its file layout."""
    torch.manual_seed(SEED + spec.index)
    model = new_model(spec)
    set_random_weights(model, spec)
    check_rope(model, spec)
    model = model.to(device="cuda", dtype=torch.bfloat16)

    shutil.rmtree(folder, ignore_errors=True)
    save_kwargs = {}
    if spec.max_shard_size is not None:
        save_kwargs["max_shard_size"] = spec.max_shard_size
    if "safe_serialization" in inspect.signature(model.save_pretrained).parameters:
        save_kwargs["safe_serialization"] = True  # transformers 4; 5 always writes safetensors
    model.save_pretrained(str(folder), **save_kwargs)
    added = normalise_config_json(folder, spec)
    if spec.moe:
        restacked = publish_expert_tensors(folder, spec)
        if restacked:
            added.append(f"{restacked} stacked expert tensors split into the published per-expert names")
        check_round_trip(folder, spec, model)
    del model
    free_cuda()

    shards = check_file_layout(spec, folder)
    size = sum(s.stat().st_size for s in shards)
    note = f"; added to config.json: {', '.join(added)}" if added else ""
    print(f"checkpoint {spec.label}: {len(shards)} safetensors file(s), {size / 1e6:.1f} MB, logit std ~{LOGIT_STD:g} "
          f"(final norm gain {spec.final_norm_gain:.2f}){note}", flush=True)


FUSED_EXPERTS = re.compile(r"^(model\.layers\.\d+\.mlp\.experts)\.(gate_up_proj|down_proj)(\.weight)?$")


def publish_expert_tensors(folder, spec):
    """The published Qwen3-MoE checkpoints, and cute-cpp, hold one tensor per expert and projection
    (mlp.experts.N.gate_proj.weight ...). A transformers version that keeps a layer's experts stacked
    (experts.gate_up_proj [E, 2F, H] or [E, H, 2F], gate first; experts.down_proj [E, H, F] or [E, F, H])
    may save them so: those are split into the published names. Returns how many stacked tensors there were.
    check_round_trip then proves the rewritten files give back the model."""
    from safetensors.torch import load_file, save_file
    moe = dict(spec.moe)
    experts, width, hidden = moe["num_experts"], moe["moe_intermediate_size"], spec.hidden
    if 2 * width == hidden or width == hidden:
        raise ValueError(f"{spec.name}: the expert width {width} cannot tell a stacked tensor's orientation")

    def oriented(t, rows, cols):
        if tuple(t.shape) == (experts, rows, cols):
            return t
        if tuple(t.shape) == (experts, cols, rows):
            return t.transpose(1, 2)
        raise ValueError(f"a stacked expert tensor of shape {tuple(t.shape)}, expected [{experts}, {rows}, {cols}]")

    restacked, weight_map = 0, {}
    for path in sorted(folder.glob("*.safetensors")):
        tensors, out = load_file(str(path)), {}
        for name, t in tensors.items():
            match = FUSED_EXPERTS.match(name)
            if match is None:
                out[name] = t
                continue
            restacked += 1
            prefix, kind = match[1], match[2]
            if kind == "gate_up_proj":
                t = oriented(t, 2 * width, hidden)
                for e in range(experts):
                    out[f"{prefix}.{e}.gate_proj.weight"] = t[e, :width].contiguous()
                    out[f"{prefix}.{e}.up_proj.weight"] = t[e, width:].contiguous()
            else:
                t = oriented(t, hidden, width)
                for e in range(experts):
                    out[f"{prefix}.{e}.down_proj.weight"] = t[e].contiguous()
        if len(out) != len(tensors) or any(FUSED_EXPERTS.match(n) for n in tensors):
            save_file(out, str(path), metadata={"format": "pt"})
        weight_map.update({name: path.name for name in out})
    index = folder / "model.safetensors.index.json"
    if restacked and index.exists():
        data = json.loads(index.read_text())
        data["weight_map"] = dict(sorted(weight_map.items()))
        index.write_text(json.dumps(data, indent=2) + "\n")
    return restacked


def check_round_trip(folder, spec, model):
    """transformers' bf16 model loaded from the files holds the in-memory model's parameters, each equal:
    the checkpoint as written (stacked expert tensors split or not) is the model the checks compare with."""
    loaded = load_model(folder, torch.bfloat16, spec.model_class)
    mine, theirs = dict(model.named_parameters()), dict(loaded.named_parameters())
    if mine.keys() != theirs.keys():
        raise RuntimeError(f"the saved checkpoint loads other parameters: {sorted(mine.keys() ^ theirs.keys())[:4]}")
    differ = [name for name, p in mine.items() if not torch.equal(p.detach(), theirs[name].detach().to(p.device))]
    del loaded
    free_cuda()
    if differ:
        raise RuntimeError(f"the saved checkpoint's {len(differ)} parameters differ from the model's: {differ[:4]}")


def free_cuda():
    """Returns freed models' memory to the device (a model in a reference cycle waits for the collector)."""
    gc.collect()
    torch.cuda.empty_cache()


def make_bad_checkpoints(work, tiny, small):
    """A llama config and a qwen3_moe one (tiny-tied otherwise), and small-untied with one shard 100
    bytes short."""
    llama = work / "bad-llama"
    shutil.rmtree(llama, ignore_errors=True)
    shutil.copytree(tiny, llama)
    config = json.loads((llama / "config.json").read_text())
    config["model_type"] = "llama"
    config["architectures"] = ["LlamaForCausalLM"]
    (llama / "config.json").write_text(json.dumps(config, indent=2) + "\n")

    # A Qwen3-MoE config of more experts than the MoE block takes (qwen3.moe).
    moe = work / "bad-moe"
    shutil.rmtree(moe, ignore_errors=True)
    shutil.copytree(tiny, moe)
    config = json.loads((moe / "config.json").read_text())
    config.update(model_type="qwen3_moe", architectures=["Qwen3MoeForCausalLM"], num_experts=300,
                  num_experts_per_tok=2, moe_intermediate_size=32, norm_topk_prob=True)
    (moe / "config.json").write_text(json.dumps(config, indent=2) + "\n")

    truncated = work / "bad-truncated"
    shutil.rmtree(truncated, ignore_errors=True)
    shutil.copytree(small, truncated)
    shard = sorted(truncated.glob("*.safetensors"))[1]
    os.truncate(shard, shard.stat().st_size - 100)
    return llama, moe, truncated, shard.name


# ---- the reference ----

def load_model(folder, dtype, model_class=Qwen3ForCausalLM):
    """from_pretrained with eager attention; `dtype` is transformers 5's keyword, `torch_dtype` the older one."""
    model = None
    for keyword in ("dtype", "torch_dtype"):
        try:
            model = model_class.from_pretrained(str(folder), attn_implementation="eager", **{keyword: dtype})
        except TypeError:
            continue
        if next(model.parameters()).dtype == dtype:
            break
    else:
        raise RuntimeError(f"from_pretrained did not give a {dtype} model")
    # Only the device: .to(dtype) would also round the rotary inv_freq buffer, which stays float32.
    model = model.to("cuda").eval()
    implementation = getattr(model.config, "_attn_implementation", "eager")
    if implementation != "eager":
        raise RuntimeError(f"transformers chose {implementation!r} attention, not eager")
    return model


class Reference:
    """transformers' model of one checkpoint, in float32 and in bf16."""

    def __init__(self, spec, folder):
        self.spec = spec
        self.fp32 = load_model(folder, torch.float32, spec.model_class)
        self.bf16 = load_model(folder, torch.bfloat16, spec.model_class)
        check_rope(self.fp32, spec)
        self.bf16.generation_config.eos_token_id = None  # never stop early: the program runs --ignore-eos
        self.bf16.generation_config.pad_token_id = 0

    @torch.no_grad()
    def logits(self, model, ids):
        """Teacher-forced logits at every position of one prompt: float32 [len, vocab]."""
        x = torch.tensor([list(ids)], dtype=torch.long, device="cuda")
        return model(input_ids=x, use_cache=False).logits[0].float().cpu().numpy()

    @torch.no_grad()
    def greedy(self, ids, new_tokens):
        """transformers' greedy generate with the bf16 model, exactly new_tokens long."""
        x = torch.tensor([list(ids)], dtype=torch.long, device="cuda")
        kwargs = dict(attention_mask=torch.ones_like(x), do_sample=False, max_new_tokens=new_tokens,
                      eos_token_id=None, pad_token_id=0)
        try:
            out = self.bf16.generate(x, min_new_tokens=new_tokens, **kwargs)
        except (TypeError, ValueError):  # a version that wants an eos for min_new_tokens; eos is None anyway
            out = self.bf16.generate(x, **kwargs)
        new = out[0, x.shape[1]:].tolist()
        if len(new) != new_tokens:
            raise RuntimeError(f"transformers generated {len(new)} tokens, asked for {new_tokens}")
        return new

    def free(self):
        del self.fp32, self.bf16
        free_cuda()


# ---- helpers for the comparisons ----

def row_cosines(a, b):
    a, b = a.astype(np.float64), b.astype(np.float64)
    return (a * b).sum(1) / (np.linalg.norm(a, axis=1) * np.linalg.norm(b, axis=1))


def first_mismatch(a, b):
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return i
    return None if len(a) == len(b) else min(len(a), len(b))


def top2_margin(z):
    top = np.partition(np.asarray(z, np.float64), -2)[-2:]
    return float(top[1] - top[0])


def tie_tolerance(ref, prefix, fp32, runs=1):
    """The fp32 logit gap under which two bf16 implementations may choose differently after `prefix`
    (whose next-token fp32 logits, already at hand, are `fp32`): NEAR_TIE, or NOISE_TIE times the rms
    of transformers' own bf16 error there, whichever is larger. runs=2 when both choices come from
    bf16 runs with errors of their own (ours batched and alone): the noise of a difference of two
    independent errors is sqrt(2) times one's."""
    bf16 = ref.logits(ref.bf16, prefix)[-1].astype(np.float64)
    return max(NEAR_TIE, NOISE_TIE * math.sqrt(runs) * float(np.sqrt(np.mean((bf16 - fp32) ** 2))))


def where_in_batch(row, lengths):
    for i, n in enumerate(lengths):
        if row < n:
            return f"prompt {i} position {row}"
        row -= n
    return f"row {row}"


# ---- 2: logits ----

def logits_prompts(spec):
    rng = rng_for(spec.index, 2)
    return [random_ids(rng, spec.vocab, n) for n in spec.logits_lengths]


def error_figures(logits, fp32):
    """(cosine at each position, rms error, max |error|) of logits against the fp32 model's."""
    diff = logits.astype(np.float64) - fp32
    return row_cosines(logits, fp32), float(np.sqrt(np.vdot(diff, diff) / diff.size)), float(np.abs(diff).max())


def check_logits(report, program, spec, folder, ref):
    """Ours and transformers' bf16 model against fp32: the rms error within RMS_VS_BF16 of bf16's, and
    the cosine at every position >= COSINE_VS_FP32. Where bf16 itself falls under COSINE_VS_FP32 (a
    near-tie, or in an MoE a router near-tie sending a token to other experts: discrete events any bf16
    implementation meets, the worst of which is a coin toss between two of them), cosine_rule's
    outlier rule instead."""
    prompts = logits_prompts(spec)
    lengths = [len(p) for p in prompts]
    ours = program.logits(folder, prompts, spec.vocab)
    fp32 = np.concatenate([ref.logits(ref.fp32, p) for p in prompts])
    bf16 = np.concatenate([ref.logits(ref.bf16, p) for p in prompts])

    cos, rms, err = error_figures(ours, fp32)
    cos_bf16, rms_bf16, err_bf16 = error_figures(bf16, fp32)
    worst = int(np.argmin(cos)) if np.isfinite(cos).all() else int(np.flatnonzero(~np.isfinite(cos))[0])
    min_cos, min_cos_bf16 = float(cos[worst]), float(cos_bf16.min())
    cos_ok, needed_cos, outliers = cosine_rule(cos, cos_bf16)
    ratio = rms / max(rms_bf16, 1e-30)
    finite = bool(np.isfinite(ours).all())
    ok = finite and ratio <= RMS_VS_BF16 and cos_ok
    std = float(fp32.std())
    scale = "" if LOGIT_STD / 2 <= std <= 2 * LOGIT_STD else f" (NOT the ~{LOGIT_STD:g} the checkpoint was built for)"
    shape = "+".join(map(str, lengths))
    report.check(f"logits.{spec.name}", ok,
                 f"{shape} tokens in one batch against fp32 transformers, beside transformers bf16: "
                 f"rms error ours {rms:.4g}, bf16 {rms_bf16:.4g}, ours / bf16 {ratio:.2f} (needs <= {RMS_VS_BF16}); "
                 f"min cosine ours {min_cos:.6f} ({where_in_batch(worst, lengths)}), bf16 {min_cos_bf16:.6f} "
                 f"(needs >= {needed_cos:.6f}){outliers}; max |error| ours {err:.4g}, bf16 {err_bf16:.4g}; "
                 f"logit std {std:.2f}{scale}{'' if finite else '; NON-FINITE values'}")
    report.records.append({"kernel": "qwen3 logits vs transformers fp32", "shape": f"{spec.label} {shape}",
                           "dtype": "bf16", "ours": min_cos if math.isfinite(min_cos) else 0.0,
                           "reference": "transformers fp32", "reference_value": 1.0, "unit": "min cosine",
                           "ratio": min_cos if math.isfinite(min_cos) else 0.0, "microseconds": 0.0})


def cosine_rule(cos, cos_bf16):
    """(pass, the minimum needed, a note). Every position >= COSINE_VS_FP32 while transformers' bf16 stays
    there. Where bf16 has positions under it (outliers), ours may too, as many as OUTLIERS_VS_BF16 times
    bf16's count plus OUTLIER_SLACK, none deeper than OUTLIER_DEPTH_VS_BF16 times bf16's worst shortfall
    (1 - its minimum cosine): the worst of such discrete events is a coin toss between two bf16
    implementations, so ours' minimum against bf16's alone would fail about half the runs of a correct
    decoder."""
    min_bf16 = float(cos_bf16.min())
    if not np.isfinite(cos).all():
        return False, COSINE_VS_FP32, ""
    if min_bf16 >= COSINE_VS_FP32:
        return bool(np.all(cos >= COSINE_VS_FP32)), COSINE_VS_FP32, ""
    ours_n, bf16_n = int(np.sum(cos < COSINE_VS_FP32)), int(np.sum(cos_bf16 < COSINE_VS_FP32))
    allowed_n = OUTLIERS_VS_BF16 * bf16_n + OUTLIER_SLACK
    needed = 1.0 - OUTLIER_DEPTH_VS_BF16 * (1.0 - min_bf16)
    ok = ours_n <= allowed_n and float(cos.min()) >= needed
    return ok, needed, (f"; positions under {COSINE_VS_FP32}: ours {ours_n}, bf16 {bf16_n} "
                        f"(needs <= {allowed_n})")


def check_logits_batched(report, program, spec, folder):
    prompts = logits_prompts(spec)
    rows = program.logits(folder, prompts, spec.vocab)[len(prompts[0]):]
    alone = program.logits(folder, [prompts[1]], spec.vocab)
    cos2 = row_cosines(alone, rows)
    diff = float(np.abs(alone.astype(np.float64) - rows).max())
    ok2 = bool(np.all(cos2 >= COSINE_BATCHED))
    report.check(f"logits-batched.{spec.name}", ok2,
                 f"77-id prompt alone against its rows of the 512+77 batch: min cosine {float(cos2.min()):.7f} "
                 f"(needs >= {COSINE_BATCHED}), max |alone - batched| {diff:.4g}"
                 f"{', bitwise equal' if np.array_equal(alone, rows) else ''}")


# ---- 3: greedy against transformers ----

def check_greedy(report, program, spec, folder, ref):
    rng, tokens = rng_for(spec.index, 3), spec.greedy_tokens
    prompt = random_ids(rng, spec.vocab, GREEDY_PROMPT)
    ours = program.generate(folder, [prompt], tokens, spec.vocab)[0]
    # fp32 logits given our prefix at every step: row len(prompt) - 1 + s predicts ours[s]
    fp32 = ref.logits(ref.fp32, prompt + ours[:-1]).astype(np.float64)[len(prompt) - 1:]
    margins = np.array([top2_margin(z) for z in fp32])

    parts, ok, pos = [], True, 0
    while pos < tokens:
        theirs = ref.greedy(prompt + ours[:pos], tokens - pos)
        j = first_mismatch(ours[pos:], theirs)
        if j is None:
            break
        step = pos + j
        z = fp32[step]
        a, b = ours[step], theirs[j]
        gap = abs(float(z[a] - z[b]))
        fp32_top1 = int(np.argmax(z))
        tie = tie_tolerance(ref, prompt + ours[:step], z)
        allowed = gap < tie or a == fp32_top1
        why = "near-tie" if gap < tie else "ours is the fp32 argmax" if a == fp32_top1 else "NOT a near-tie"
        parts.append(f"step {step}: ours {a}, transformers {b}, fp32 top1 {fp32_top1} top1-top2 margin "
                     f"{margins[step]:.4f}, fp32 gap between the two {gap:.4f} ({why}; tie under {tie:.4f})")
        if not allowed:
            ok = False
            break
        if len(parts) > MAX_DIVERGENCES:
            ok = False
            parts.append(f"more than {MAX_DIVERGENCES} divergences")
            break
        pos = step + 1  # transformers restarts from our prefix, ours[step] included

    context = (f"fp32 top1-top2 margin along our ids: min {margins.min():.4f}, "
               f"{int((margins < NEAR_TIE).sum())} steps under {NEAR_TIE}")
    if not parts:
        figures = f"{tokens} ids after {GREEDY_PROMPT} identical to transformers bf16 generate; {context}"
    else:
        tail = "; the rest identical after restarting transformers from our prefix" if ok else ""
        figures = (f"{len(parts)} divergence(s) from transformers bf16 generate in {tokens} ids: "
                   f"{'; '.join(parts)}{tail}; {context}")
    report.check(f"greedy.{spec.name}", ok, figures)


# ---- 4: batched generate equals unbatched ----

def check_batched_generate(report, program, spec, folder, ref):
    rng = rng_for(spec.index, 4)
    prompts = [random_ids(rng, spec.vocab, n) for n in BATCH_PROMPTS]
    together = program.generate(folder, prompts, BATCH_TOKENS, spec.vocab)
    alone = [program.generate(folder, [p], BATCH_TOKENS, spec.vocab)[0] for p in prompts]
    # Decode steps at other batch sizes sum in other orders (split-K, split-KV), so batched and alone
    # may part at a near-tie, as two bf16 implementations may; once parted, the rest is not compared.
    problems, ties = [], []
    for i, (p, t, a) in enumerate(zip(prompts, together, alone)):
        j = first_mismatch(t, a)
        if j is not None:
            z = ref.logits(ref.fp32, p + a[:j]).astype(np.float64)[-1]
            gap, tie = abs(float(z[t[j]] - z[a[j]])), tie_tolerance(ref, p + a[:j], z, runs=2)
            (ties if gap < tie else problems).append(
                f"prompt {i} ({len(p)} ids) step {j}: batched {t[j]}, alone {a[j]}, fp32 gap between the two "
                f"{gap:.4f} ({'a near-tie' if gap < tie else 'NOT a near-tie'}: tie under {tie:.4f})")
    sizes = ", ".join(map(str, BATCH_PROMPTS))
    report.check(f"batched-generate.{spec.name}", not problems,
                 f"prompts of {sizes} ids x {BATCH_TOKENS} greedy ids, together and alone: "
                 + ("identical" if not problems and not ties else "; ".join(problems + ties)))
    # Decode steps replay CUDA graphs (padded to a power of two rows) whose kernels are programmatic
    # dependents (each starts while the one before runs and waits for its memory: a kernel that
    # did not wait would race and differ); --eager launches every kernel. The same launches either
    # way, so the same ids.
    eager = program.generate(folder, prompts, BATCH_TOKENS, spec.vocab, extra=("--eager",))
    same = eager == together
    report.check(f"graphs-vs-eager.{spec.name}", same,
                 "decode steps through CUDA graphs and eagerly give " + ("identical ids" if same else
                 f"different ids: graphs {together}, eager {eager}"))
    # The same graphs with plain edges (--no-pdl).
    plain = program.generate(folder, prompts, BATCH_TOKENS, spec.vocab, extra=("--no-pdl",))
    same_plain = plain == eager
    report.check(f"graphs-no-pdl-vs-eager.{spec.name}", same_plain,
                 "decode steps through CUDA graphs without PDL and eagerly give " + ("identical ids" if same_plain
                 else f"different ids: plain graphs {plain}, eager {eager}"))


# ---- 5: sampling ----

def in_kept_set(z, token, temperature, top_k, top_p, slack=0.0):
    """Whether transformers' warpers (temperature, then top-k, then top-p over the top-k) keep `token`
    for the logits z, after every other logit above it moves down by up to 2 * slack (each logit moving
    at most `slack` the token's way). Ties are resolved in the token's favour."""
    z = np.asarray(z, np.float64).copy()
    zt = z[token]
    above = z > zt
    z[above] = np.maximum(z[above] - 2 * slack, zt)
    above = z > zt
    rank = int(above.sum())
    if rank >= top_k:
        return False
    others = z[~above]
    others = np.delete(others, np.flatnonzero(others == zt)[:1])  # the token itself
    kept_below = np.sort(others)[::-1][:top_k - 1 - rank]
    values = np.concatenate([z[above], [zt], kept_below]) / temperature
    w = np.exp(values - values.max())
    mass_above = w[:rank].sum() / w.sum()
    return bool(mass_above < top_p + SAMPLING_PROB_TOL)


def kept_set_size(z, temperature, top_k, top_p):
    u = np.sort(np.asarray(z, np.float64))[::-1][:top_k] / temperature
    w = np.exp(u - u[0])
    w /= w.sum()
    mass_above = np.concatenate([[0.0], np.cumsum(w)[:-1]])
    return int((mass_above < top_p).sum())


def sampling_figures(ref, prompt, ids):
    """(tokens kept exactly, kept only with the logit slack, outside, first outside, non-top1 picks, median set).
    The slack at a step is SAMPLING_LOGIT_SLACK, or half the tie rule's gap there (NOISE_TIE / 2 times the
    rms of transformers' bf16 logits minus fp32's) where larger: each logit may move that far, so a pair's
    gap as far as tie_tolerance allows."""
    t, k, p = SAMPLING["temperature"], SAMPLING["top_k"], SAMPLING["top_p"]
    z_all = ref.logits(ref.fp32, prompt + ids[:-1]).astype(np.float64)[len(prompt) - 1:]
    b_all = ref.logits(ref.bf16, prompt + ids[:-1]).astype(np.float64)[len(prompt) - 1:]
    exact = slack = 0
    outside = []
    for step, (z, b, token) in enumerate(zip(z_all, b_all, ids)):
        step_slack = max(SAMPLING_LOGIT_SLACK, NOISE_TIE / 2 * float(np.sqrt(np.mean((b - z) ** 2))))
        if in_kept_set(z, token, t, k, p):
            exact += 1
        elif in_kept_set(z, token, t, k, p, slack=step_slack):
            slack += 1
        else:
            order = np.argsort(-z)
            outside.append(f"step {step}: token {token} of fp32 rank {int(np.flatnonzero(order == token)[0])}, "
                           f"kept set {kept_set_size(z, t, k, p)} tokens")
    not_top1 = int(sum(int(np.argmax(z)) != token for z, token in zip(z_all, ids)))
    sizes = [kept_set_size(z, t, k, p) for z in z_all]
    return exact, slack, outside, not_top1, float(np.median(sizes))


def check_sampling(report, program, spec, folder, ref):
    rng = rng_for(spec.index, 5)
    prompt = random_ids(rng, spec.vocab, SAMPLING_PROMPT)
    flags = ["--temperature", SAMPLING["temperature"], "--top-k", SAMPLING["top_k"], "--top-p", SAMPLING["top_p"]]
    first = program.generate(folder, [prompt], SAMPLING_TOKENS, spec.vocab, [*flags, "--seed", 7])[0]
    again = program.generate(folder, [prompt], SAMPLING_TOKENS, spec.vocab, [*flags, "--seed", 7])[0]
    other = program.generate(folder, [prompt], SAMPLING_TOKENS, spec.vocab, [*flags, "--seed", 8])[0]
    same, differ = first == again, first != other
    parts = [f"seed 7 twice: {'identical' if same else 'DIFFERENT at step %d' % first_mismatch(first, again)}",
             f"seed 8: {'different' if differ else 'SAME ids'}"]
    all_kept = True
    for seed, ids in ((7, first), (8, other)):
        exact, slack, outside, not_top1, median = sampling_figures(ref, prompt, ids)
        all_kept &= not outside
        parts.append(f"seed {seed}: {exact + slack}/{len(ids)} in the kept set ({slack} only with the bf16-noise "
                     f"logit slack), {not_top1} not the fp32 top-1, median kept set {median:g}"
                     + (f"; OUTSIDE: {'; '.join(outside[:4])}" if outside else ""))
    settings = f"T {SAMPLING['temperature']}, top-k {SAMPLING['top_k']}, top-p {SAMPLING['top_p']}"
    report.check(f"sampling.{spec.name}", same and differ and all_kept, f"{settings}; " + "; ".join(parts))


# ---- 6: bad inputs ----

def check_bad_inputs(report, program, work, tiny_spec, tiny, small):
    llama, moe, truncated, shard = make_bad_checkpoints(work, tiny, small)
    out = work / "bad-input.f32"
    rng = rng_for(tiny_spec.index, 6)
    ok_ids = random_ids(rng, tiny_spec.vocab, 8)

    def logits_args(model, ids):
        return ["logits", "--model", model, "--ids", ",".join(map(str, ids)), "--out", out]

    too_long = random_ids(rng, tiny_spec.vocab, tiny_spec.max_positions + 1)
    cases = [
        ("id-equal-vocab", logits_args(tiny, ok_ids[:4] + [tiny_spec.vocab] + ok_ids[4:]), "[qwen3.input]"),
        ("id-negative", logits_args(tiny, ok_ids[:4] + [-1] + ok_ids[4:]), "[qwen3.input]"),
        ("prompt-past-max-position", logits_args(tiny, too_long), "[qwen3.input]"),
        ("prompt-plus-new-past-max-seq",
         ["generate", "--model", tiny, "--ids", ",".join(map(str, random_ids(rng, tiny_spec.vocab, 40))),
          "--max-new-tokens", 32, "--max-seq", 64, "--ignore-eos"], "[qwen3.input]"),
        ("model-type-llama", logits_args(llama, ok_ids), "[config.model-type]"),
        ("moe-config", logits_args(moe, ok_ids), "[qwen3.moe]"),
        ("truncated-shard", logits_args(truncated, ok_ids), "[safetensors."),
    ]
    notes = {"prompt-past-max-position": f"{len(too_long)} ids, max_position_embeddings {tiny_spec.max_positions}",
             "prompt-plus-new-past-max-seq": "40 ids + 32 new, --max-seq 64",
             "truncated-shard": f"{shard} 100 bytes short"}
    for name, args, expected in cases:
        try:
            done = program.run(args, timeout=120)
        except ProgramError as e:
            report.check(f"bad-input.{name}", False, str(e))
            continue
        line = first_line(done.stderr)
        ok = done.returncode == 2 and expected in done.stderr
        note = f"{notes[name]}; " if name in notes else ""
        shape = "" if line.startswith("cute-cpp [") else "; the first stderr line does not start with 'cute-cpp ['"
        report.check(f"bad-input.{name}", ok,
                     f"{note}exit {done.returncode} (expected 2), expected {expected!r} on stderr; "
                     f"stderr: {line[:200]}{shape}")


# ---- main ----

ROUTING_LINE = re.compile(r"routing pass (\d+) layer (\d+): (\d+) tokens x top (\d+);.*per expert: ([\d ]+)$")


def check_routing_stats(report, program, spec, folder):
    """`logits --routing-stats`: one line for each sparse layer of the pass (none for a dense one), each
    expert's count, the counts summing to tokens x top-k."""
    moe = dict(spec.moe)
    prompts = logits_prompts(spec)
    tokens = sum(len(p) for p in prompts)
    out = program.work / f"routing-{spec.name}.f32"
    done = program.run_ok(["logits", "--model", folder, "--ids", ids_argument(prompts), "--out", out,
                           "--routing-stats"])
    lines = [m for m in map(ROUTING_LINE.match, done.stderr.splitlines()) if m]
    sparse = [layer for layer in range(spec.layers) if layer not in moe["mlp_only_layers"]
              and (layer + 1) % moe["decoder_sparse_step"] == 0]
    layers = [int(m[2]) for m in lines]
    counts = [[int(c) for c in m[5].split()] for m in lines]
    ok = (layers == sparse and all(int(m[3]) == tokens and int(m[4]) == moe["num_experts_per_tok"] for m in lines)
          and all(len(c) == moe["num_experts"] and sum(c) == tokens * moe["num_experts_per_tok"] for c in counts))
    busiest = max((max(c) for c in counts), default=0)
    report.check(f"routing-stats.{spec.name}", ok, f"layers {layers} (sparse {sparse}), {tokens} tokens x top "
                 f"{moe['num_experts_per_tok']} over {moe['num_experts']} experts, busiest expert {busiest}")


def run_checks(report, program, spec, folder, ref):
    """One checkpoint's checks: all of them for the toys (tiny-yarn: logits alone); logits, greedy and
    batched generate (with the graphs checks) for the published widths."""
    report.guarded(f"logits.{spec.name}", check_logits, program, spec, folder, ref)
    if spec.moe:
        report.guarded(f"routing-stats.{spec.name}", check_routing_stats, program, spec, folder)
    if spec.logits_only:
        return
    if not spec.family:
        report.guarded(f"logits-batched.{spec.name}", check_logits_batched, program, spec, folder)
    report.guarded(f"greedy.{spec.name}", check_greedy, program, spec, folder, ref)
    report.guarded(f"batched-generate.{spec.name}", check_batched_generate, program, spec, folder, ref)
    if spec.tied and not spec.family:
        report.guarded(f"sampling.{spec.name}", check_sampling, program, spec, folder, ref)


def check_checkpoint(report, program, spec, work):
    """Builds one checkpoint, loads transformers' models of it, runs its checks, frees the models and
    prints the wall times. Returns the checkpoint's folder, or None where it could not be built or loaded.
    A published-width checkpoint whose checks all pass is deleted (up to 7 GB each)."""
    folder = work / "checkpoints" / spec.name
    failed_before, times, error = len(report.failed), [time.monotonic()], None
    try:
        build_checkpoint(spec, folder)
        times.append(time.monotonic())
        ref = Reference(spec, folder)
        times.append(time.monotonic())
    except Exception as e:  # noqa: BLE001 -- this checkpoint's failure; the others still run
        error = f"{type(e).__name__}: {e}"
    if error is not None:
        free_cuda()
        report.check(f"checkpoint.{spec.name}", False, error)
        return None
    try:
        run_checks(report, program, spec, folder, ref)
    finally:
        ref.free()
    times.append(time.monotonic())
    build, load, checks = (b - a for a, b in zip(times, times[1:]))
    print(f"time {spec.label}: {times[-1] - times[0]:.0f} s (checkpoint {build:.0f} s, transformers fp32 + bf16 "
          f"load {load:.0f} s, checks {checks:.0f} s)", flush=True)
    if spec.family and len(report.failed) == failed_before:
        shutil.rmtree(folder, ignore_errors=True)
    return folder


def check_toys(report, program, work):
    """tiny-tied, small-untied, tiny-yarn and tiny-moe, then the bad inputs, which need the first two."""
    tiny, small = SPECS[:2]
    folders = [check_checkpoint(report, program, spec, work) for spec in SPECS]
    if None in folders[:2]:
        report.check("bad-input", False, f"needs the {tiny.name} and {small.name} checkpoints")
    else:
        report.guarded("bad-input", check_bad_inputs, program, work, tiny, *folders[:2])


def family_specs(opts):
    """The published configs --family selects, from --configs-dir or the shared folder."""
    if not opts.family:
        return []
    folder = configs_folder(opts.configs_dir, opts.family)
    print(f"published configs: {', '.join(f'qwen3-{size}.json' for size in opts.family)} in {folder}", flush=True)
    return [family_spec(size, folder / f"qwen3-{size}.json") for size in opts.family]


def parse_options():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", required=True, help="the CMake build folder holding models/qwen3/cute-cpp-qwen3")
    ap.add_argument("--work", help="folder for checkpoints and outputs (default: a temporary one)")
    ap.add_argument("--json", help="write the records (the repository's benchmark record format) here")
    ap.add_argument("--family", type=family_sizes, default="all", metavar="all|none|SIZE,...",
                    help=f"the published configs to check: all (default), none, or some of {','.join(FAMILY)}")
    ap.add_argument("--no-toys", action="store_true",
                    help="skip tiny-tied, small-untied, tiny-yarn and tiny-moe, and with them the sampling and bad-input checks")
    ap.add_argument("--configs-dir", help="the folder of qwen3-<size>.json (default: <repo>/shared/models, "
                                          "else <repo>/../shared/models)")
    opts = ap.parse_args()
    if opts.no_toys and not opts.family:
        ap.error("--no-toys with --family none leaves nothing to check")
    return opts


def finish(report, json_path, work, temporary):
    if json_path:
        Path(json_path).write_text(json.dumps(report.records, indent=1) + "\n")
    print(f"{len(report.passed)} passed, {len(report.failed)} failed")
    if report.failed:
        print(f"failed: {', '.join(report.failed)}; work folder kept: {work}")
        return 1
    if temporary:
        shutil.rmtree(work, ignore_errors=True)
    return 0


def main():
    opts = parse_options()
    binary = Path(opts.build) / "models" / "qwen3" / "cute-cpp-qwen3"
    if not binary.is_file() or not os.access(binary, os.X_OK):
        print(f"FAIL: {binary} is not an executable file (build the target cute-cpp-qwen3)", file=sys.stderr)
        return 1
    if not torch.cuda.is_available():
        print("FAIL: torch sees no CUDA device; the references run on the GPU", file=sys.stderr)
        return 1
    try:
        family = family_specs(opts)
    except (OSError, ValueError, KeyError) as e:
        print(f"FAIL: the published configs: {type(e).__name__}: {e}", file=sys.stderr)
        return 1
    torch.set_float32_matmul_precision("highest")  # the fp32 reference without TF32
    transformers.logging.set_verbosity_error()

    temporary = opts.work is None
    work = Path(tempfile.mkdtemp(prefix="check_qwen3-") if temporary else opts.work).resolve()
    work.mkdir(parents=True, exist_ok=True)
    print(f"program {binary}; transformers {transformers.__version__}, torch {torch.__version__}, "
          f"{torch.cuda.get_device_name()}; work folder {work}", flush=True)

    report = Report()
    program = Program(binary.resolve(), work)
    if not opts.no_toys:
        check_toys(report, program, work)
    for spec in family:
        check_checkpoint(report, program, spec, work)
    return finish(report, opts.json, work, temporary)


if __name__ == "__main__":
    sys.exit(main())
