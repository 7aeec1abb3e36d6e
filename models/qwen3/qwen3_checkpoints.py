# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: 2026 cute-cpp authors
"""check_qwen3.py's checkpoints: random Qwen3 and Qwen3-MoE models at the toy widths and at each published
config's, their weights drawn as check_qwen3.py's docstring says, written by transformers' save_pretrained
(MoE experts split into the published per-expert tensors), checked to load back bit for bit, the bad
checkpoints of the bad-input checks, and transformers' models of them as the reference."""
import argparse
import inspect
import json
import math
import os
import re
import shutil
from dataclasses import dataclass
from pathlib import Path

import torch
from transformers import Qwen3Config, Qwen3ForCausalLM, Qwen3MoeConfig, Qwen3MoeForCausalLM

import decoder_checks
from decoder_checks import SEED, free_cuda

ROPE_THETA = 1e6
RMS_NORM_EPS = 1e-6
INIT_STD = 0.05        # every projection and embedding weight: N(0, INIT_STD)
NORM_JITTER = 0.1      # every RMSNorm weight: gain * (1 + NORM_JITTER * N(0, 1))
QK_NORM_GAIN = 1.0     # attention logits of std ~ QK_NORM_GAIN^2: peaked enough that positions matter
LOGIT_STD = 4.0        # the final norm's gain is chosen to give logits of about this std
GREEDY_TOKENS = 128         # greedy ids a toy checkpoint's check generates

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



class Reference(decoder_checks.Reference):
    """transformers' model of one Qwen3 checkpoint, in float32 and in bf16, its RoPE checked."""

    def __init__(self, spec, folder):
        super().__init__(spec, load_model(folder, torch.float32, spec.model_class),
                         load_model(folder, torch.bfloat16, spec.model_class))
        check_rope(self.fp32, spec)
