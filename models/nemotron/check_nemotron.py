#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: 2026 cute-cpp authors
"""GPU check of the end-to-end Nemotron-H decoder (models/nemotron/cute-cpp-nemotron) against transformers.

  check_nemotron.py --build BUILD [--work DIR] [--json FILE] [--only tiny-hybrid|nano-5]

Runs BUILD/models/nemotron/cute-cpp-nemotron as a subprocess and compares what it prints and writes with
transformers' NemotronHForCausalLM (its PyTorch path: eager attention, the torch Mamba-2 mixer) on the same
random checkpoints. Prints `check <name>: pass|FAIL (<figures>)` per check, then `N passed, N failed`; exits
0 iff every check passes. The report, the program runner, the comparison helpers and the greedy and sampling
checks are models/common's (decoder_checks.py, decoder_program.py), which check_qwen3.py runs too.

Checkpoints (random weights, written with the published tensor names: backbone.*, one tensor per expert and
projection; transformers 5 names them model.* and stacks a layer's experts, so they are renamed and split on
writing, and transformers' model loaded back must hold every parameter of the model that wrote it, bit for bit):
  tiny-hybrid  pattern "M*E-ME": hidden 256, Mamba-2 8 heads of 64 in 2 groups (state 128, conv 4, chunk 64),
               attention 4 / 2 heads of 64, 8 experts of width 64, top 2, a shared expert of 128, a dense
               ReLU^2 MLP of 192, vocab 1000, untied.
  nano-5       Nemotron-3 Nano's published config (nemotron-3-nano-30b-a3b.json in <repo>/shared/models or <repo>/../shared/models) at its widths
               (hidden 2688, 64 Mamba heads, 128 experts of 1856, top 6, 32 / 2 attention heads of 128, vocab
               131072) with the pattern "MEM*E": every kind Nano has, 5 of its 52 layers.
Weights N(0, 0.05), norms 1 + 0.1 N(0, 1) (the final norm's gain chosen for logits of std ~4), the conv
N(0, 0.25) with a bias N(0, 0.05), A = exp(A_log) uniform in [1, 16], dt = softplus(dt_bias) log-uniform in
[time_step_min, time_step_max], D 1 + 0.1 N(0, 1), the routers' correction bias N(0, 0.02) in float32.

Checks per checkpoint:
  logits.<ckpt>          a 300-id and a 77-id prompt in one batch against the float32 model on each alone,
                         beside transformers' bf16: our rms error at most 2.5x bf16's, cosine >= 0.999 at every
                         position (or bf16's own minimum where lower). Recorded: `nemotron logits vs
                         transformers fp32`, the minimum cosine.
  logits-batched.<ckpt>  the 77-id prompt alone against its rows of the batch: cosine >= 0.9999, but where
                         transformers' bf16 meets router near-ties on these ids (same_rule): as many positions
                         under it as the logits rule allows ours against fp32, none deeper.
  split-prefill.<ckpt>   each prompt's first 70 ids, then the rest continuing the sequences (conv and SSM
                         states and the KV cache carried): against the whole prompt in one pass (same_rule)
                         and against fp32 by the logits rule.
  decode-logits.<ckpt>   the first 200 ids prefilled, the rest fed one decode step at a time (the state update,
                         the conv update, paged decode attention): against fp32 by the logits rule.
  greedy.<ckpt>          32 greedy ids after 40 random ids against transformers' bf16 generate (decoder_checks'
                         near-tie rule: where the two part, the fp32 model decides; the noise in its tie is
                         bf16's worst along the prefix: Reference.logit_noise).
  batched-generate.<ckpt> decoder_checks': prompts of 5, 33 and 130 ids generated together and alone, the
                         same ids up to a near-tie; graphs-vs-eager.<ckpt>: decode steps from CUDA graphs
                         whose kernel edges are programmatic (the default) and --eager give the same ids;
                         graphs-no-pdl-vs-eager.<ckpt>: so do plain graphs (--no-pdl).
  sampling.tiny-hybrid   decoder_checks': T 0.8, top-k 20, top-p 0.9, seed 7 twice the same ids, seed 8 others,
                         every sampled id in the kept set of the fp32 logits.
  bad-input.<case>       (tiny-hybrid) an id equal to vocab, a negative id, a prompt past
                         max_position_embeddings, an unsupported Mamba head width, a pattern character that is
                         no kind, a missing tensor, a truncated shard: exit 2 with the rule on stderr.

Needs torch with CUDA, transformers 5.x, safetensors, numpy."""
import argparse
import inspect
import json
import math
import shutil
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "common"))
import decoder_checks as q  # noqa: E402 -- the report, the reference, the comparisons and the checks Qwen3's use
import decoder_program  # noqa: E402 -- the program runner
from bench_nemotron import published_config  # noqa: E402 -- the published config, found as the bench finds it

try:
    import numpy as np
    import torch
    import transformers
    from safetensors.torch import save_file
    from transformers import NemotronHConfig, NemotronHForCausalLM
except ImportError as e:
    print(f"FAIL: {e}: check_nemotron.py needs numpy, torch (with CUDA), transformers 5 and safetensors",
          file=sys.stderr)
    sys.exit(1)

ROOT = Path(__file__).resolve().parents[2]
INIT_STD, NORM_JITTER, LOGIT_STD = 0.05, 0.1, 4.0
# The split falls inside every prompt (the program takes one K for all: under the 77-id one) and inside
# the longer prompt's first SSD chunk.
LOGITS_LENGTHS, SPLIT_AT, DECODE_FROM = (300, 77), 70, 200
COSINE_SAME = 0.9999
SHARD_BYTES = 4 << 30

TINY = {
    "architectures": ["NemotronHForCausalLM"], "model_type": "nemotron_h", "hidden_size": 256, "vocab_size": 1000,
    "hybrid_override_pattern": "M*E-ME", "num_hidden_layers": 6, "max_position_embeddings": 4096,
    "layer_norm_epsilon": 1e-5, "tie_word_embeddings": False, "num_attention_heads": 4, "num_key_value_heads": 2,
    "head_dim": 64, "mamba_num_heads": 8, "mamba_head_dim": 64, "ssm_state_size": 128, "n_groups": 2,
    "conv_kernel": 4, "chunk_size": 64, "expand": 2, "mamba_hidden_act": "silu", "use_conv_bias": True,
    "time_step_min": 0.001, "time_step_max": 0.1, "time_step_floor": 1e-4, "n_routed_experts": 8,
    "num_experts_per_tok": 2, "moe_intermediate_size": 64, "moe_shared_expert_intermediate_size": 128,
    "n_shared_experts": 1, "norm_topk_prob": True, "routed_scaling_factor": 2.5, "n_group": 1, "topk_group": 1,
    "intermediate_size": 192, "mlp_hidden_act": "relu2", "eos_token_id": 2, "bos_token_id": 1, "pad_token_id": 0,
    "attention_bias": False, "mlp_bias": False, "use_bias": False, "residual_in_fp32": False,
}


@dataclass
class Spec:
    """One checkpoint: its config.json fields and how it is checked (decoder_checks' checks read name,
    index, vocab and greedy_tokens)."""
    name: str
    label: str
    fields: dict
    index: int
    greedy_tokens: int = 32

    @property
    def vocab(self):
        return self.fields["vocab_size"]


def nano_spec():
    fields = published_config()
    if not fields.get("hybrid_override_pattern", "").startswith("MEM"):
        raise ValueError("the published Nano config's pattern changed")
    fields.update(hybrid_override_pattern="MEM*E", num_hidden_layers=5)
    return Spec("nano-5", "Nemotron-3-Nano (5/52 layers: MEM*E)", fields, 21)


SPECS = {"tiny-hybrid": lambda: Spec("tiny-hybrid", "tiny-hybrid M*E-ME", dict(TINY), 20), "nano-5": nano_spec}


# ---- checkpoints ----

@torch.no_grad()
def set_random_weights(model, fields):
    g = torch.Generator(device="cuda").manual_seed(q.SEED)
    hidden = fields["hidden_size"]

    def normal(p, std, mean=0.0):
        p.copy_(mean + std * torch.randn(p.shape, generator=g, device="cuda", dtype=torch.float32))

    for name, p in model.named_parameters():
        if name.endswith("norm_f.weight"):
            normal(p, NORM_JITTER * LOGIT_STD / (INIT_STD * math.sqrt(hidden)), LOGIT_STD / (INIT_STD * math.sqrt(hidden)))
        elif name.endswith("norm.weight"):
            normal(p, NORM_JITTER, 1.0)
        elif name.endswith("A_log"):
            p.copy_(torch.log(1 + 15 * torch.rand(p.shape, generator=g, device="cuda")))
        elif name.endswith(".D"):
            normal(p, NORM_JITTER, 1.0)
        elif name.endswith("dt_bias"):
            lo, hi = math.log(fields["time_step_min"]), math.log(fields["time_step_max"])
            dt = torch.exp(lo + (hi - lo) * torch.rand(p.shape, generator=g, device="cuda"))
            p.copy_(dt + torch.log(-torch.expm1(-dt)))  # softplus^-1
        elif name.endswith("conv1d.weight"):
            normal(p, 0.25)
        elif name.endswith("conv1d.bias"):
            normal(p, 0.05)
        else:
            normal(p, INIT_STD)
    for name, b in model.named_buffers():  # the router's correction bias is a float32 buffer
        if name.endswith("e_score_correction_bias"):
            normal(b, 0.02)


def published_tensors(model, fields):
    """The state dict under the published names (backbone.*, experts.E.{up,down}_proj.weight), bf16 except
    the float32 correction bias, A_log and D (as the published checkpoint stores them)."""
    hidden, width = fields["hidden_size"], fields["moe_intermediate_size"]
    out = {}
    for name, t in model.state_dict().items():
        name = "backbone." + name[len("model."):] if name.startswith("model.") else name
        keep32 = name.endswith(("e_score_correction_bias", ".A_log", ".D"))
        t = t.detach().to(torch.float32 if keep32 else torch.bfloat16).contiguous().cpu()
        stem, _, leaf = name.rpartition(".experts.")
        proj = leaf.removesuffix(".weight")
        if stem and proj in ("up_proj", "down_proj") and t.dim() == 3:  # transformers 5's stacked experts
            rows, cols = (width, hidden) if proj == "up_proj" else (hidden, width)
            for e in range(t.shape[0]):
                x = t[e] if tuple(t[e].shape) == (rows, cols) else t[e].t()
                out[f"{stem}.experts.{e}.{proj}.weight"] = x.contiguous()
            continue
        out[name] = t
    return out


def write_checkpoint(folder, tensors, fields):
    """config.json and the tensors in shards of at most SHARD_BYTES (an index when more than one)."""
    folder.mkdir(parents=True, exist_ok=True)
    config = dict(fields, torch_dtype="bfloat16")
    (folder / "config.json").write_text(json.dumps(config, indent=1))
    shards, size = [{}], 0
    for name, t in tensors.items():
        n = t.numel() * t.element_size()
        if size + n > SHARD_BYTES and shards[-1]:
            shards.append({})
            size = 0
        shards[-1][name], size = t, size + n
    if len(shards) == 1:
        save_file(shards[0], str(folder / "model.safetensors"), metadata={"format": "pt"})
        return
    weight_map = {}
    for i, shard in enumerate(shards):
        file = f"model-{i + 1:05d}-of-{len(shards):05d}.safetensors"
        save_file(shard, str(folder / file), metadata={"format": "pt"})
        weight_map.update({name: file for name in shard})
    total = sum(t.numel() * t.element_size() for t in tensors.values())
    (folder / "model.safetensors.index.json").write_text(
        json.dumps({"metadata": {"total_size": total}, "weight_map": weight_map}, indent=1))


def load_model(folder, dtype):
    model = NemotronHForCausalLM.from_pretrained(str(folder), attn_implementation="eager", dtype=dtype)
    return model.to("cuda").eval()


def build_checkpoint(spec, folder):
    """The random model written under the published names, and the proof that transformers reads back
    exactly it: every parameter of the reloaded bf16 model equals the writer's, cast the same way."""
    kinds = {"mamba": "M", "linear_attention": "M", "moe": "E", "attention": "*", "full_attention": "*", "mlp": "-"}
    kwargs = {k: v for k, v in spec.fields.items() if k not in ("architectures", "model_type")}
    config = None
    if "layers_block_type" in inspect.signature(NemotronHConfig.__init__).parameters:  # transformers 5's spelling
        # Its layer names changed within 5.x (5.17: linear_attention / full_attention for mamba /
        # attention); the first spelling the config's validator accepts is used.
        for names in ({"M": "linear_attention", "*": "full_attention", "E": "moe", "-": "mlp"},
                      {"M": "mamba", "*": "attention", "E": "moe", "-": "mlp"}):
            kwargs["layers_block_type"] = [names[c] for c in spec.fields["hybrid_override_pattern"]]
            try:
                config = NemotronHConfig(**kwargs)
                break
            except Exception as e:  # noqa: BLE001  (huggingface_hub's strict-dataclass validation error)
                error = e
        if config is None:
            raise RuntimeError(f"transformers' NemotronHConfig takes neither spelling of layers_block_type: {error}")
    else:
        config = NemotronHConfig(**kwargs)
    pattern = "".join(kinds.get(k, "?") for k in getattr(config, "layers_block_type", []))
    if pattern and pattern != spec.fields["hybrid_override_pattern"]:
        raise RuntimeError(f"transformers reads the pattern as {pattern!r}")
    model = NemotronHForCausalLM(config).to("cuda", torch.float32)
    set_random_weights(model, spec.fields)
    write_checkpoint(folder, published_tensors(model, spec.fields), spec.fields)
    loaded = load_model(folder, torch.bfloat16)
    bias = lambda m: {n: b for n, b in m.named_buffers() if n.endswith("e_score_correction_bias")}  # noqa: E731
    mine, theirs = {**dict(model.named_parameters()), **bias(model)}, {**dict(loaded.named_parameters()), **bias(loaded)}
    if mine.keys() != theirs.keys():
        raise RuntimeError(f"the checkpoint loads other parameters: {sorted(mine.keys() ^ theirs.keys())[:4]}")
    differ = [n for n, p in mine.items() if not torch.equal(p.detach().to(theirs[n].dtype), theirs[n].detach())]
    del model, loaded
    q.free_cuda()
    if differ:
        raise RuntimeError(f"{len(differ)} reloaded parameters differ from the writer's: {differ[:4]}")


class Reference(q.Reference):
    """transformers' model of one checkpoint in float32 and bf16 (decoder_checks' logits and greedy)."""

    def __init__(self, spec, folder):
        super().__init__(spec, load_model(folder, torch.float32), load_model(folder, torch.bfloat16))

    def logit_noise(self, prefix, fp32):
        """bf16's logit noise after `prefix`, router near-ties counted: the largest rms of transformers'
        bf16 logits minus its fp32 ones over the prefix's positions (decoder_checks' takes the last
        alone). The sigmoid routers' top 6 of 128 meet near-ties at a few percent of tokens in any bf16
        run; one sends its token to another expert and moves the logits there and after by far more than
        rounding does elsewhere, at positions that differ from run to run, so a step may carry the worst
        noise bf16 shows along the sequence."""
        diff = self.logits(self.bf16, prefix).astype(np.float64) - self.logits(self.fp32, prefix)
        return float(np.sqrt(np.mean(diff ** 2, axis=1)).max())


class Program(decoder_program.Program):
    """decoder_program's runner for cute-cpp-nemotron, with logits' --split and --decode-from."""

    def logits(self, folder, prompts, vocab, extra=()):
        self.runs += 1
        out = self.work / f"logits-{self.runs}.f32"
        self.run_ok(["logits", "--model", folder, "--ids", decoder_program.ids_argument(prompts), "--out", out, *extra])
        total = sum(len(p) for p in prompts)
        if not out.exists() or out.stat().st_size != total * vocab * 4:
            raise decoder_program.ProgramError(f"{out.name}: not {total} tokens x {vocab} float32 logits")
        return np.fromfile(out, dtype="<f4").reshape(total, vocab)


# ---- checks ----

def judged(report, name, spec, prompts, ours, ref, record=False):
    """decoder_checks' logits rule: rms error within 2.5x transformers' bf16, cosine >= 0.999 (or bf16's min)."""
    fp32 = np.concatenate([ref.logits(ref.fp32, p) for p in prompts])
    bf16 = np.concatenate([ref.logits(ref.bf16, p) for p in prompts])
    cos, rms, err = q.error_figures(ours, fp32)
    cos_bf16, rms_bf16, _ = q.error_figures(bf16, fp32)
    lengths = [len(p) for p in prompts]
    worst = int(np.nanargmin(cos)) if np.isfinite(cos).any() else 0
    needed = min(q.COSINE_VS_FP32, float(cos_bf16.min()))
    ratio = rms / max(rms_bf16, 1e-30)
    ok = bool(np.isfinite(ours).all()) and ratio <= q.RMS_VS_BF16 and bool(np.all(cos >= needed))
    min_cos = float(cos[worst]) if math.isfinite(float(cos[worst])) else 0.0
    report.check(name, ok, f"{'+'.join(map(str, lengths))} ids against fp32 transformers: rms error ours {rms:.4g}, "
                 f"bf16 {rms_bf16:.4g} (ratio {ratio:.2f}, needs <= {q.RMS_VS_BF16}); min cosine ours {min_cos:.6f} "
                 f"({q.where_in_batch(worst, lengths)}), bf16 {float(cos_bf16.min()):.6f} (needs >= {needed:.6f}); "
                 f"max |error| {err:.4g}; logit std {float(fp32.std()):.2f}")
    if record:
        report.records.append({"kernel": "nemotron logits vs transformers fp32",
                               "shape": f"{spec.label} {'+'.join(map(str, lengths))}", "dtype": "bf16",
                               "ours": min_cos, "reference": "transformers fp32", "reference_value": 1.0,
                               "unit": "min cosine", "ratio": min_cos, "microseconds": 0.0})
    return cos_bf16


def same_rule(cos, cos_bf16):
    """(pass, note) for two of our runs of the same tokens (batched and alone, split and whole): every
    position >= COSINE_SAME; where transformers' bf16 meets router near-ties on these tokens (positions
    under COSINE_VS_FP32 against fp32), two bf16 runs that round differently (the batch changes the
    GEMMs' tiles) may part there too: then as many positions as cosine_rule allows ours against fp32,
    none deeper. A state leak between sequences or chunks moves every later position, not a few."""
    bf16_n, ours_n = int(np.sum(cos_bf16 < q.COSINE_VS_FP32)), int(np.sum(~(cos >= COSINE_SAME)))
    if not np.isfinite(cos).all():
        return False, "not finite"
    if bf16_n == 0:
        return ours_n == 0, f"needs >= {COSINE_SAME} everywhere (bf16 has no position under {q.COSINE_VS_FP32})"
    allowed = q.OUTLIERS_VS_BF16 * bf16_n + q.OUTLIER_SLACK
    needed = 1.0 - q.OUTLIER_DEPTH_VS_BF16 * (1.0 - float(cos_bf16.min()))
    ok = ours_n <= allowed and float(cos.min()) >= needed
    return ok, (f"positions under {COSINE_SAME}: {ours_n} (bf16 against fp32 has {bf16_n} under {q.COSINE_VS_FP32}: "
                f"needs <= {allowed}, none under {needed:.6f})")


def check_logits(report, program, spec, folder, ref):
    rng = q.rng_for(spec.index, 2)
    prompts = [q.random_ids(rng, spec.vocab, n) for n in LOGITS_LENGTHS]
    whole = program.logits(folder, prompts, spec.vocab)
    cos_bf16 = judged(report, f"logits.{spec.name}", spec, prompts, whole, ref, record=True)
    alone = program.logits(folder, [prompts[1]], spec.vocab)
    cos = q.row_cosines(alone, whole[len(prompts[0]):])
    ok, note = same_rule(cos, cos_bf16[len(prompts[0]):])
    report.check(f"logits-batched.{spec.name}", ok,
                 f"the {len(prompts[1])}-id prompt alone against its rows of the batch: min cosine {cos.min():.6f}"
                 f"{', bitwise equal' if np.array_equal(alone, whole[len(prompts[0]):]) else ''}; {note}")
    split = program.logits(folder, prompts, spec.vocab, ("--split", SPLIT_AT))
    cos = q.row_cosines(split, whole)
    ok, note = same_rule(cos, cos_bf16)
    report.check(f"split-prefill-vs-whole.{spec.name}", ok,
                 f"first {SPLIT_AT} ids, then the rest continuing the sequences, against one pass: min cosine "
                 f"{cos.min():.6f} ({q.where_in_batch(int(np.argmin(cos)), list(LOGITS_LENGTHS))}); {note}")
    judged(report, f"split-prefill.{spec.name}", spec, prompts, split, ref)
    decode_prompts = [q.random_ids(rng, spec.vocab, DECODE_FROM + 24), q.random_ids(rng, spec.vocab, DECODE_FROM + 9)]
    stepped = program.logits(folder, decode_prompts, spec.vocab, ("--decode-from", DECODE_FROM))
    judged(report, f"decode-logits.{spec.name}", spec, decode_prompts, stepped, ref)
    # The same steps through graphs without programmatic edges (the default has them): the 2-row graph
    # for 9 steps, then the 1-row one (batch 1, the target of PDL) for 15, bit for bit.
    plain = program.logits(folder, decode_prompts, spec.vocab, ("--decode-from", DECODE_FROM, "--no-pdl"))
    same = bool(np.array_equal(plain, stepped))
    report.check(f"decode-logits-pdl-vs-graphs.{spec.name}", same,
                 "decode steps at batch 2 then 1 with programmatic edges and without: " +
                 ("identical logits" if same else f"max difference {float(np.abs(plain - stepped).max()):.3g}"))


def check_bad_inputs(report, program, work, spec, folder):
    vocab = spec.vocab
    out = work / "bad.f32"

    def variant(name, change=None, files=None):
        path = work / f"bad-{name}"
        shutil.copytree(folder, path, dirs_exist_ok=True)
        if change:
            (path / "config.json").write_text(json.dumps(dict(spec.fields, torch_dtype="bfloat16", **change)))
        if files:
            files(path)
        return path

    def truncate(path):
        f = path / "model.safetensors"
        f.write_bytes(f.read_bytes()[:-100])

    def drop_tensor(path):
        from safetensors.torch import load_file
        tensors = load_file(str(path / "model.safetensors"))
        tensors.pop("backbone.layers.0.mixer.D")
        save_file(tensors, str(path / "model.safetensors"), metadata={"format": "pt"})

    cases = [
        ("id-at-vocab", folder, f"1,{vocab}", "nemotron.input", f"outside [0, {vocab})"),
        ("negative-id", folder, "1,-2", "nemotron.input", "id -2"),
        ("past-positions", variant("positions", {"max_position_embeddings": 16}), ",".join(["3"] * 17),
         "nemotron.input", "17 tokens"),
        ("mamba-head-dim", variant("p32", {"mamba_head_dim": 32}), "1", "nemotron.mamba", "mamba_head_dim 32"),
        ("pattern", variant("pattern", {"hybrid_override_pattern": "M*X-ME"}), "1", "config.value", "\"X\""),
        ("missing-tensor", variant("missing", files=drop_tensor), "1", "nemotron.tensor-missing", "mixer.D"),
        ("truncated-shard", variant("truncated", files=truncate), "1", "safetensors", ""),
    ]
    for name, path, ids, rule, text in cases:
        done = program.run(["logits", "--model", path, "--ids", ids, "--out", out])
        first = decoder_program.first_line(done.stderr)
        ok = done.returncode == 2 and f"[{rule}" in first and text in first
        report.check(f"bad-input.{name}", ok, f"exit {done.returncode}: {first[:300]}")


def check_checkpoint(report, program, spec, work):
    folder = work / spec.name
    try:
        build_checkpoint(spec, folder)
    except Exception as e:  # noqa: BLE001
        report.check(f"checkpoint.{spec.name}", False, f"{type(e).__name__}: {e}")
        return
    report.check(f"checkpoint.{spec.name}", True, "written under the published names, reloaded bit for bit")
    ref = Reference(spec, folder)
    try:
        report.guarded(f"logits.{spec.name}", check_logits, program, spec, folder, ref)
        report.guarded(f"greedy.{spec.name}", q.check_greedy, program, spec, folder, ref)
        report.guarded(f"batched-generate.{spec.name}", q.check_batched_generate, program, spec, folder, ref)
        if spec.name == "tiny-hybrid":
            report.guarded(f"sampling.{spec.name}", q.check_sampling, program, spec, folder, ref)
            report.guarded("bad-input", check_bad_inputs, program, work, spec, folder)
    finally:
        ref.free()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", required=True, help="the build folder holding models/nemotron/cute-cpp-nemotron")
    ap.add_argument("--work", help="folder for checkpoints and outputs (default: a temporary one)")
    ap.add_argument("--json", help="write the records here")
    ap.add_argument("--only", choices=sorted(SPECS), help="one checkpoint only")
    opts = ap.parse_args()
    binary = decoder_program.built_program(opts.build, "nemotron", "cute-cpp-nemotron")
    if binary is None:
        return 1
    if not torch.cuda.is_available():
        print("FAIL: torch sees no CUDA device", file=sys.stderr)
        return 1
    torch.set_float32_matmul_precision("highest")
    transformers.logging.set_verbosity_error()
    temporary = opts.work is None
    work = Path(tempfile.mkdtemp(prefix="check_nemotron-") if temporary else opts.work).resolve()
    work.mkdir(parents=True, exist_ok=True)
    print(f"program {binary}; transformers {transformers.__version__}, torch {torch.__version__}, "
          f"{torch.cuda.get_device_name()}; work folder {work}", flush=True)
    report, program = q.Report(), Program(binary.resolve(), work)
    for name in [opts.only] if opts.only else list(SPECS):
        try:
            spec = SPECS[name]()
        except (OSError, ValueError) as e:
            report.check(f"checkpoint.{name}", False, f"{type(e).__name__}: {e}")
            continue
        check_checkpoint(report, program, spec, work)
    return q.finish(report, opts.json, work, temporary)


if __name__ == "__main__":
    sys.exit(main())
