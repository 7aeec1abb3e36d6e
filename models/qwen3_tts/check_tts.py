#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: 2026 cute-cpp authors
"""GPU check of Qwen3-TTS's talker and code predictor (models/qwen3_tts/cute-cpp-tts).

  check_tts.py --build BUILD [--work DIR] [--json FILE] [--talker-layers N] [--frames N]

Runs BUILD/models/qwen3_tts/cute-cpp-tts as a subprocess on a random-weight checkpoint at
Qwen3-TTS-12Hz-1.7B's widths (talker hidden 2048, 16 / 8 heads of 128, intermediate 6144, codec
vocabulary 3072, M-RoPE sections [24, 20, 20] interleaved, theta 1e6; text vocabulary 151936 of width
2048 with its projection; 16 code groups; code predictor hidden 1024, 5 layers, intermediate 3072,
2048 entries, the 2048 -> 1024 projection) with the talker reduced to --talker-layers (4) layers, and
compares with a reference. The reference is qwen-tts's own Qwen3TTSForConditionalGeneration when
`qwen_tts` imports (it pins transformers 4.57, so under newer transformers it may not); otherwise a
float32 torch reimplementation of the talker and code predictor written below from the published
architecture (Qwen3 layers: RMSNorm, q/k RMSNorm per head, GQA, SwiGLU; the talker's multimodal RoPE
with its pairs interleaved among the three ids; the text projection MLP with biases; the
small_to_mtp_projection). The same code in bf16 gives the reference's own bf16 error for scale.
Prints `check <name>: pass|FAIL (<figures>)` per check, then `N passed, N failed`; exits 0 iff all pass.

Weights: matrices and biases N(0, 0.05); RMSNorm weights gain x (1 + 0.1 N(0, 1)), gain 1 except the
two final norms, 4 / (0.05 sqrt(hidden)), so that logits have a standard deviation of about 4 and
greedy choices are rarely near-ties (check_qwen3.py's reasoning).

Checks:
  logits.talker / logits.predictor       teacher-forced logits (`logits`) of the CustomVoice prompt
                                         (speaker serena, non-streaming) against float32: cosine >= 0.999
                                         at every row; the predictor on the talker's last hidden state
                                         and a frame of random codes. Beside it, the bf16 reference's own
                                         minimum cosine.
  logits-streaming.talker                the streaming prompt's rows, the same rule.
  greedy                                 `codes --greedy` for --frames (20) frames: every one of the
                                         frames x 16 choices is the float32 reference's argmax (after the
                                         talker's processors: repetition penalty 1.05, suppressed ids,
                                         eos held back for 2 frames) given our own earlier codes, or
                                         within a near-tie tolerance of it (0.05, or 3x the rms of the bf16
                                         reference's own error on those logits, as check_qwen3.py, or 2
                                         bf16 ulps of the best logit, where bf16 rounding makes ties); the
                                         figure also says how many frames the bf16 reference's own greedy
                                         run shares exactly (identical codes is the expected case).
  greedy-streaming                       the same with --streaming (a text id added to each frame's input).
  graphs-vs-eager                        greedy codes replayed from the frame's CUDA graph and launched
                                         eagerly (--eager) are the same.
  sampling                               seeded sampling: seed 7 twice gives the same codes, seed 8 others.
--self-test (no program, no GPU needed: --device cpu) checks the reimplementation itself against
qwen-tts at tiny widths with the real vocabularies and ids: the prompt embeddings its generate builds
(captured before its talker runs), both modes; talker and code-predictor logits; 8+ greedy frames of its
generate; with --build, also `cute-cpp-tts prompt` (the C++ prompt rows, no GPU) for 3 speakers (one with a
dialect, and none) x 3 languages x both modes x with and without an instruction. Run on the CPU with qwen-tts 0.1.1 under transformers 4.57.3 (torch 2.5.1): prompts equal to
1e-8, logits cosine 0.9999998, 24 greedy frames identical, the program's 36 prompts identical, the M-RoPE pair rule exact
with three different ids (interleaved and blocks).
--json writes one record: `qwen3_tts logits vs fp32`, the minimum cosine.
"""
import argparse
import json
import math
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import torch

TIMEOUT_S = 300
DEVICE = "cuda"  # --self-test may run on "cpu"
GROUPS = 16
SPEAKER, SPEAKER_ID = "serena", 3066
IDS = dict(pad=2148, bos=2149, eos=2150, think=2154, nothink=2155, think_bos=2156, think_eos=2157)
TEXT = dict(im_start=151644, im_end=151645, tts_pad=151671, tts_bos=151672, tts_eos=151673)


def config(talker_layers, tiny=False):
    """The 1.7B widths at `talker_layers` layers; tiny: the same vocabularies and ids at small widths
    (talker hidden 64, 4 / 2 heads of 16, M-RoPE [4, 2, 2]; text width 48; code predictor hidden 32)."""
    cfg = full_config(talker_layers)
    if tiny:
        t, p = cfg["talker_config"], cfg["talker_config"]["code_predictor_config"]
        t.update(hidden_size=64, intermediate_size=96, num_attention_heads=4, num_key_value_heads=2, head_dim=16,
                 text_hidden_size=48)
        t["rope_scaling"]["mrope_section"] = [4, 2, 2]
        p.update(hidden_size=32, intermediate_size=64, num_hidden_layers=2, num_attention_heads=2,
                 num_key_value_heads=1, head_dim=16)
    return cfg


def full_config(talker_layers):
    predictor = {"hidden_size": 1024, "intermediate_size": 3072, "num_hidden_layers": 5, "num_attention_heads": 16,
                 "num_key_value_heads": 8, "head_dim": 128, "vocab_size": 2048, "rms_norm_eps": 1e-6,
                 "rope_theta": 1000000, "max_position_embeddings": 65536, "num_code_groups": GROUPS,
                 "hidden_act": "silu", "attention_bias": False}
    talker = {"hidden_size": 2048, "intermediate_size": 6144, "num_hidden_layers": talker_layers,
              "num_attention_heads": 16, "num_key_value_heads": 8, "head_dim": 128, "vocab_size": 3072,
              "rms_norm_eps": 1e-6, "rope_theta": 1000000, "max_position_embeddings": 32768, "hidden_act": "silu",
              "rope_scaling": {"interleaved": True, "mrope_section": [24, 20, 20], "rope_type": "default"},
              "text_vocab_size": 151936, "text_hidden_size": 2048, "num_code_groups": GROUPS,
              "codec_pad_id": IDS["pad"], "codec_bos_id": IDS["bos"], "codec_eos_token_id": IDS["eos"],
              "codec_think_id": IDS["think"], "codec_nothink_id": IDS["nothink"],
              "codec_think_bos_id": IDS["think_bos"], "codec_think_eos_id": IDS["think_eos"],
              "spk_id": {SPEAKER: SPEAKER_ID}, "spk_is_dialect": {SPEAKER: False},
              "codec_language_id": {"english": 2050, "chinese": 2055}, "code_predictor_config": predictor,
              "attention_bias": False}
    return {"architectures": ["Qwen3TTSForConditionalGeneration"], "model_type": "qwen3_tts",
            "tts_model_type": "custom_voice", "tts_model_size": "1b7", "tokenizer_type": "qwen3_tts_tokenizer_12hz",
            "im_start_token_id": TEXT["im_start"], "im_end_token_id": TEXT["im_end"],
            "tts_pad_token_id": TEXT["tts_pad"], "tts_bos_token_id": TEXT["tts_bos"],
            "tts_eos_token_id": TEXT["tts_eos"], "torch_dtype": "bfloat16", "talker_config": talker}


def layer_shapes(prefix, c):
    h, q, kv, d, f = (c["hidden_size"], c["num_attention_heads"] * c["head_dim"],
                      c["num_key_value_heads"] * c["head_dim"], c["head_dim"], c["intermediate_size"])
    return {prefix + "input_layernorm.weight": ("norm", [h]), prefix + "post_attention_layernorm.weight": ("norm", [h]),
            prefix + "self_attn.q_proj.weight": ("w", [q, h]), prefix + "self_attn.k_proj.weight": ("w", [kv, h]),
            prefix + "self_attn.v_proj.weight": ("w", [kv, h]), prefix + "self_attn.o_proj.weight": ("w", [h, q]),
            prefix + "self_attn.q_norm.weight": ("norm", [d]), prefix + "self_attn.k_norm.weight": ("norm", [d]),
            prefix + "mlp.gate_proj.weight": ("w", [f, h]), prefix + "mlp.up_proj.weight": ("w", [f, h]),
            prefix + "mlp.down_proj.weight": ("w", [h, f])}


def weight_shapes(cfg):
    t, p = cfg["talker_config"], cfg["talker_config"]["code_predictor_config"]
    H, h, Ht = t["hidden_size"], p["hidden_size"], t["text_hidden_size"]
    s = {"talker.model.codec_embedding.weight": ("w", [t["vocab_size"], H]),
         "talker.model.text_embedding.weight": ("w", [t["text_vocab_size"], Ht]),
         "talker.model.norm.weight": ("final", [H]),
         "talker.text_projection.linear_fc1.weight": ("w", [Ht, Ht]), "talker.text_projection.linear_fc1.bias": ("w", [Ht]),
         "talker.text_projection.linear_fc2.weight": ("w", [H, Ht]), "talker.text_projection.linear_fc2.bias": ("w", [H]),
         "talker.codec_head.weight": ("w", [t["vocab_size"], H]),
         "talker.code_predictor.model.norm.weight": ("final", [h]),
         "talker.code_predictor.small_to_mtp_projection.weight": ("w", [h, H]),
         "talker.code_predictor.small_to_mtp_projection.bias": ("w", [h])}
    for i in range(t["num_hidden_layers"]):
        s.update(layer_shapes(f"talker.model.layers.{i}.", t))
    for i in range(p["num_hidden_layers"]):
        s.update(layer_shapes(f"talker.code_predictor.model.layers.{i}.", p))
    for g in range(GROUPS - 1):
        s[f"talker.code_predictor.model.codec_embedding.{g}.weight"] = ("w", [p["vocab_size"], H])
        s[f"talker.code_predictor.lm_head.{g}.weight"] = ("w", [p["vocab_size"], h])
    return s


def random_weights(cfg, seed=20261205):
    g = torch.Generator(device=DEVICE).manual_seed(seed)
    out = {}
    for name, (kind, shape) in weight_shapes(cfg).items():
        n = torch.randn(shape, generator=g, device=DEVICE)
        if kind == "w":
            out[name] = (0.05 * n).to(torch.bfloat16)
        else:
            gain = 4.0 / (0.05 * math.sqrt(shape[0])) if kind == "final" else 1.0
            out[name] = (gain * (1 + 0.1 * n)).to(torch.bfloat16)
    return out


# ---- the reference, written from the architecture ----

def rms(x, w, eps=1e-6):
    xf = x.float()
    return w * (xf * torch.rsqrt(xf.pow(2).mean(-1, keepdim=True) + eps)).to(x.dtype)


def rotate_half(x):
    a, b = x.chunk(2, dim=-1)
    return torch.cat((-b, a), dim=-1)


def mrope_pairs(sections, interleaved, half):
    """The id (0 temporal, 1 height, 2 width) that turns each frequency pair (mrope.hpp's rule)."""
    comp = []
    for i in range(half):
        if interleaved:
            c = next((c for c in (1, 2) if i % 3 == c and i < 3 * sections[c]), 0)
        else:
            c = 0 if i < sections[0] else (1 if i < sections[0] + sections[1] else 2)
        comp.append(c)
    return torch.tensor(comp, device=DEVICE)


def cos_sin(c, positions, dtype, mrope):
    """positions [3, T] (talker) or [T]: cos and sin [T, head_dim] in float32, cast to dtype."""
    d = c["head_dim"]
    inv = 1.0 / (c["rope_theta"] ** (torch.arange(0, d, 2, device=DEVICE, dtype=torch.int64).float() / d))
    if mrope is None:
        freqs = positions.float()[:, None] * inv[None, :]
    else:
        all_freqs = positions.float()[:, :, None] * inv[None, None, :]  # [3, T, half]
        freqs = all_freqs.gather(0, mrope[None, None, :].expand(1, positions.shape[1], -1))[0]
    emb = torch.cat((freqs, freqs), dim=-1)
    return emb.cos().to(dtype), emb.sin().to(dtype)


def decoder(x, w, prefix, c, cos, sin):
    T = x.shape[0]
    heads, kv, d = c["num_attention_heads"], c["num_key_value_heads"], c["head_dim"]
    mask = torch.full((T, T), float("-inf"), device=DEVICE).triu(1)
    for i in range(c["num_hidden_layers"]):
        p = f"{prefix}layers.{i}."
        h = rms(x, w[p + "input_layernorm.weight"])
        q = rms(torch.nn.functional.linear(h, w[p + "self_attn.q_proj.weight"]).view(T, heads, d), w[p + "self_attn.q_norm.weight"])
        k = rms(torch.nn.functional.linear(h, w[p + "self_attn.k_proj.weight"]).view(T, kv, d), w[p + "self_attn.k_norm.weight"])
        v = torch.nn.functional.linear(h, w[p + "self_attn.v_proj.weight"]).view(T, kv, d)
        q = q * cos[:, None] + rotate_half(q) * sin[:, None]
        k = k * cos[:, None] + rotate_half(k) * sin[:, None]
        k = k.repeat_interleave(heads // kv, dim=1)
        v = v.repeat_interleave(heads // kv, dim=1)
        scores = torch.einsum("qhd,khd->hqk", q, k) * d ** -0.5 + mask
        probs = torch.softmax(scores, dim=-1, dtype=torch.float32).to(x.dtype)
        a = torch.einsum("hqk,khd->qhd", probs, v).reshape(T, heads * d)
        x = x + torch.nn.functional.linear(a, w[p + "self_attn.o_proj.weight"])
        h = rms(x, w[p + "post_attention_layernorm.weight"])
        g = torch.nn.functional.linear(h, w[p + "mlp.gate_proj.weight"])
        u = torch.nn.functional.linear(h, w[p + "mlp.up_proj.weight"])
        x = x + torch.nn.functional.linear(torch.nn.functional.silu(g) * u, w[p + "mlp.down_proj.weight"])
    return rms(x, w[prefix + "norm.weight"])


class Reference:
    """The talker and code predictor in `dtype` (float32 or bfloat16), without a cache: every pass
    runs the whole sequence (the sequences here are short)."""

    def __init__(self, cfg, weights, dtype):
        self.cfg, self.t = cfg, cfg["talker_config"]
        self.p = self.t["code_predictor_config"]
        self.w = {k: v.to(dtype) for k, v in weights.items()}
        self.dtype = dtype
        r = self.t["rope_scaling"]
        self.mrope = mrope_pairs(r["mrope_section"], r.get("interleaved", False), self.t["head_dim"] // 2)

    def text(self, ids):
        w = self.w
        x = w["talker.model.text_embedding.weight"][torch.tensor(ids, device=DEVICE)]
        x = torch.nn.functional.silu(torch.nn.functional.linear(x, w["talker.text_projection.linear_fc1.weight"],
                                                                w["talker.text_projection.linear_fc1.bias"]))
        return torch.nn.functional.linear(x, w["talker.text_projection.linear_fc2.weight"],
                                          w["talker.text_projection.linear_fc2.bias"])

    def codec(self, ids):
        return self.w["talker.model.codec_embedding.weight"][torch.tensor(ids, device=DEVICE)]

    def rows(self, rows):
        """prompt.hpp's rows (text id or -1, codec id or -1) -> embeddings [T, H]."""
        H = self.t["hidden_size"]
        out = torch.zeros(len(rows), H, device=DEVICE, dtype=self.dtype)
        for i, (t, c) in enumerate(rows):
            if t >= 0 and c >= 0:
                out[i] = self.text([t])[0] + self.codec([c])[0]
            elif t >= 0:
                out[i] = self.text([t])[0]
            elif c >= 0:
                out[i] = self.codec([c])[0]
        return out

    def talker(self, embeds):
        T = embeds.shape[0]
        pos = torch.arange(T, device=DEVICE)[None].expand(3, -1)  # text only: the three ids equal
        cos, sin = cos_sin(self.t, pos, self.dtype, self.mrope)
        h = decoder(embeds, self.w, "talker.model.", self.t, cos, sin)
        return h, torch.nn.functional.linear(h, self.w["talker.codec_head.weight"])

    def predictor_hidden(self, hidden, codes):
        """The code predictor's final-normed rows over [hidden, code 0, ..., code len-1]'s inputs."""
        w = self.w
        rows = [hidden[None], self.codec([codes[0]])]
        for g in range(1, len(codes)):
            rows.append(w[f"talker.code_predictor.model.codec_embedding.{g - 1}.weight"][codes[g]][None])
        x = torch.nn.functional.linear(torch.cat(rows), w["talker.code_predictor.small_to_mtp_projection.weight"],
                                       w["talker.code_predictor.small_to_mtp_projection.bias"])
        cos, sin = cos_sin(self.p, torch.arange(x.shape[0], device=DEVICE), self.dtype, None)
        return decoder(x, self.w, "talker.code_predictor.model.", self.p, cos, sin)

    def head(self, g, row):
        """lm_head g: the logits of code g + 1."""
        return torch.nn.functional.linear(row, self.w[f"talker.code_predictor.lm_head.{g}.weight"])

    def predictor(self, hidden, codes):
        """Teacher-forced: the logits of codes 1 .. 15 [15, entries] given codes 0 .. 14."""
        h = self.predictor_hidden(hidden, codes[:GROUPS - 1])
        return torch.stack([self.head(g, h[g + 1]) for g in range(GROUPS - 1)])

    def greedy(self, rows, frames, trailing=()):
        """The reference generate with do_sample false: frame f adds text id trailing[f], then tts_pad."""
        embeds = self.rows(rows)
        pad = self.text([TEXT["tts_pad"]])[0]
        text = [self.text([t])[0] for t in trailing]
        out, firsts = [], []
        for f in range(frames):
            h, logits = self.talker(embeds)
            c0 = int(talker_scores(logits[-1], firsts, f).argmax())
            if c0 == IDS["eos"]:
                break
            codes = [c0]
            for s in range(1, GROUPS):
                hp = self.predictor_hidden(h[-1], codes)
                codes.append(int(self.head(s - 1, hp[s]).float().argmax()))
            out.append(codes)
            firsts.append(c0)
            embeds = torch.cat([embeds, self.frame_input(codes, text[f] if f < len(text) else pad)[None]])
        return out

    def frame_input(self, codes, text_row):
        w = self.w
        e = [self.codec([codes[0]])[0]] + [w[f"talker.code_predictor.model.codec_embedding.{g - 1}.weight"][codes[g]]
                                          for g in range(1, GROUPS)]
        return torch.stack(e).sum(0) + text_row


def talker_scores(logits, earlier, frame, vocab=3072, penalty=1.05):
    """The reference generate's processors on float32 logits: repetition penalty, min_new_tokens 2, suppress."""
    z = logits.float().clone()
    for c in set(earlier):
        z[c] = z[c] * penalty if z[c] < 0 else z[c] / penalty
    if frame < 2:
        z[IDS["eos"]] = float("-inf")
    keep = z[IDS["eos"]].clone()
    z[vocab - 1024:] = float("-inf")
    z[IDS["eos"]] = keep
    return z


def build_prompt(text_ids, streaming):
    """prompt.hpp's build_prompt for speaker serena, language auto (the reference's generate)."""
    pad, bos, eos = TEXT["tts_pad"], TEXT["tts_bos"], TEXT["tts_eos"]
    codec = [IDS["nothink"], IDS["think_bos"], IDS["think_eos"], SPEAKER_ID, IDS["pad"], IDS["bos"]]
    rows = [(t, -1) for t in text_ids[:3]] + [(pad, c) for c in codec[:-2]] + [(bos, codec[-2])]
    body = text_ids[3:-5]
    if not streaming:
        rows += [(t, IDS["pad"]) for t in body] + [(eos, IDS["pad"]), (pad, IDS["bos"])]
        return rows, []
    return rows + [(body[0], IDS["bos"])], body[1:] + [eos]


def assistant_ids(gen, n):
    body = torch.randint(0, 151000, (n,), generator=gen).tolist()
    return [TEXT["im_start"], 77091, 198] + body + [TEXT["im_end"], 198, TEXT["im_start"], 77091, 198]


# ---- qwen-tts itself, where it imports ----

class QwenTtsReference:
    """qwen-tts 0.1.1's modules in float32 on the same weights: the talker's logits over prompt
    embeddings and the code predictor's teacher-forced logits (forward_sub_talker_finetune)."""

    def __init__(self, cfg, weights):
        from qwen_tts.core.models.configuration_qwen3_tts import Qwen3TTSConfig
        from qwen_tts.core.models.modeling_qwen3_tts import Qwen3TTSForConditionalGeneration
        config = Qwen3TTSConfig(**cfg)
        config.talker_config._attn_implementation = "eager"
        config.talker_config.code_predictor_config._attn_implementation = "eager"
        self.model = Qwen3TTSForConditionalGeneration(config).to(DEVICE).float().eval()
        missing, unexpected = self.model.load_state_dict({k: v.float() for k, v in weights.items()}, strict=False)
        missing = [m for m in missing if m.startswith("talker.")]
        if missing or unexpected:
            raise RuntimeError(f"qwen_tts state dict: missing {missing[:4]}, unexpected {unexpected[:4]}")

    @torch.no_grad()
    def talker(self, embeds):
        t = self.model.talker
        mask = torch.ones(1, embeds.shape[0], dtype=torch.long, device=DEVICE)
        out = t(inputs_embeds=embeds[None].float(), attention_mask=mask, use_cache=False, output_hidden_states=True)
        return out.past_hidden[0, -1], out.logits[0]

    @torch.no_grad()
    def predictor(self, hidden, codes):
        ids = torch.tensor([codes], device=DEVICE)
        logits, _ = self.model.talker.forward_sub_talker_finetune(ids, hidden[None].float())
        return logits[0]


def qwen_tts_reference(cfg, weights):
    """QwenTtsReference, or (None, why not)."""
    try:
        return QwenTtsReference(cfg, weights), "qwen-tts"
    except Exception as e:  # an import error under transformers 5, or an API that moved
        return None, f"qwen_tts unavailable ({type(e).__name__}: {str(e)[:120]})"


# ---- the program ----

class Program:
    def __init__(self, path):
        self.path = str(path)

    def run(self, args):
        r = subprocess.run([self.path, *args], capture_output=True, text=True, timeout=TIMEOUT_S)
        if r.returncode != 0:
            raise RuntimeError(f"{' '.join(args)[:200]} exited {r.returncode}: {r.stderr.strip()[:400]}")
        return r.stdout

    def logits(self, folder, ids, codes, out, streaming=False):
        args = ["logits", "--model", str(folder), "--ids", ",".join(map(str, ids)), "--speaker", SPEAKER,
                "--codes", ",".join(map(str, codes)), "--out", str(out)] + (["--streaming"] if streaming else [])
        self.run(args)
        return torch.from_numpy(np.fromfile(out, dtype="float32")).cuda()

    def codes(self, folder, ids, frames, extra=()):
        out = self.run(["codes", "--model", str(folder), "--ids", ",".join(map(str, ids)), "--speaker", SPEAKER,
                        "--max-new-tokens", str(frames + 1), *extra])
        if not out.strip():
            return []
        lines = [list(map(int, line.split())) for line in out.strip("\n").split("\n")]
        if len(lines) != GROUPS:
            raise RuntimeError(f"codes printed {len(lines)} lines, expected {GROUPS}")
        return [[lines[g][f] for g in range(GROUPS)] for f in range(len(lines[0]))]


class Report:
    def __init__(self):
        self.passed = self.failed = 0

    def check(self, name, ok, figures):
        print(f"check {name}: {'pass' if ok else 'FAIL'} ({figures})", flush=True)
        self.passed += bool(ok)
        self.failed += not ok

    def guarded(self, name, fn, *args):
        try:
            return fn(*args)
        except Exception as e:
            self.check(name, False, f"{type(e).__name__}: {str(e)[:300]}")
            return None


def row_cosines(a, b):
    return torch.nn.functional.cosine_similarity(a.float(), b.float(), dim=-1)


def compare(report, name, ours, fp32, bf16):
    cos = row_cosines(ours, fp32)
    own = row_cosines(bf16, fp32)
    worst = float(cos.min())
    report.check(name, worst >= 0.999,
                 f"min cosine {worst:.6f} over {cos.numel()} rows; the bf16 reference's own {float(own.min()):.6f}; "
                 f"logit std {float(fp32.float().std()):.2f}")
    return worst


def check_logits(report, program, folder, work, refs, ids, codes, streaming):
    fp32, bf16, official = refs
    rows, _ = build_prompt(ids, streaming)
    vocab, entries = 3072, 2048
    got = program.logits(folder, ids, codes, work / "logits.bin", streaming)
    talker = got[:len(rows) * vocab].view(len(rows), vocab)
    predictor = got[len(rows) * vocab:].view(GROUPS - 1, entries)
    tag = "logits-streaming" if streaming else "logits"
    with torch.no_grad():
        h32, l32 = fp32.talker(fp32.rows(rows))
        h16, l16 = bf16.talker(bf16.rows(rows))
        worst = compare(report, f"{tag}.talker", talker, l32, l16)
        if streaming:
            return worst
        p32 = fp32.predictor(h32[-1], codes)
        p16 = bf16.predictor(h16[-1], codes)
        worst = min(worst, compare(report, f"{tag}.predictor", predictor, p32, p16))
        if official is not None:
            report.guarded("reimplementation-vs-qwen-tts", check_against_qwen_tts, report, official, fp32, rows, codes,
                           l32, p32)
    return worst


def check_against_qwen_tts(report, official, fp32, rows, codes, l32, p32):
    """The float32 reimplementation against qwen-tts's own modules on the same weights."""
    oh, ol = official.talker(fp32.rows(rows))
    op = official.predictor(oh, codes)
    a, b = float(row_cosines(ol, l32).min()), float(row_cosines(op, p32).min())
    report.check("reimplementation-vs-qwen-tts", a >= 0.9999 and b >= 0.9999,
                 f"float32 talker min cosine {a:.6f}, code predictor {b:.6f}")


def near_tie_ratio(z32, z16, chosen):
    """How far the chosen id's float32 score lies below the float32 best, as a fraction of the
    near-tie tolerance there: 0.05, 3x the rms of the bf16 reference's own error on those scores
    (check_qwen3.py's rule), or 2 bf16 ulps at the best score (bf16 logits a step apart may round to
    one value, and the tie goes to the smaller id). Rows: one per decision."""
    finite = torch.isfinite(z32) & torch.isfinite(z16)
    err = torch.where(finite, z16.float() - z32.float(), torch.zeros_like(z32)).pow(2).mean(-1).sqrt()
    best = z32.max(-1).values
    ulp = torch.exp2(torch.floor(torch.log2(best.abs().clamp(min=1e-30))) - 7)
    tol = torch.maximum(torch.clamp(3 * err, min=0.05), 2 * ulp)
    gap = z32.max(-1).values - z32.gather(-1, chosen[:, None])[:, 0]
    return float((gap / tol).max())


def check_greedy(report, program, folder, refs, ids, frames, streaming=False):
    fp32, bf16, _ = refs
    ours = program.codes(folder, ids, frames, ["--greedy"] + (["--streaming"] if streaming else []))
    rows, trailing = build_prompt(ids, streaming)
    worst, decisions, exact = 0.0, 0, 0
    with torch.no_grad():
        e32, e16 = fp32.rows(rows), bf16.rows(rows)
        t32 = [fp32.text([t])[0] for t in trailing] + [fp32.text([TEXT["tts_pad"]])[0]]
        t16 = [bf16.text([t])[0] for t in trailing] + [bf16.text([TEXT["tts_pad"]])[0]]
        for f, codes in enumerate(ours):
            (h32, l32), (h16, l16) = fp32.talker(e32), bf16.talker(e16)
            firsts = [c[0] for c in ours[:f]]
            z32, z16 = talker_scores(l32[-1], firsts, f)[None], talker_scores(l16[-1], firsts, f)[None]
            chosen = torch.tensor(codes, device=DEVICE)
            worst = max(worst, near_tie_ratio(z32, z16, chosen[:1]))
            p32, p16 = fp32.predictor(h32[-1], codes).float(), bf16.predictor(h16[-1], codes).float()
            worst = max(worst, near_tie_ratio(p32, p16, chosen[1:]))
            decisions += GROUPS
            e32 = torch.cat([e32, fp32.frame_input(codes, t32[min(f, len(trailing))])[None]])
            e16 = torch.cat([e16, bf16.frame_input(codes, t16[min(f, len(trailing))])[None]])
        theirs = bf16.greedy(rows, frames, trailing)
    for a, b in zip(ours, theirs):
        if a != b:
            break
        exact += 1
    report.check("greedy-streaming" if streaming else "greedy", len(ours) > 0 and worst <= 1.0,
                 f"{len(ours)} frames, {decisions} choices; each the float32 argmax given our earlier codes or within "
                 f"the near-tie tolerance (max(0.05, 3x the bf16 reference's rms error, 2 bf16 ulps)): worst {worst:.2f} "
                 f"of it; the bf16 reference's own greedy run agrees on its first {exact} of {len(theirs)} frames")
    return ours


def check_program_modes(report, program, folder, ids, frames, greedy):
    eager = program.codes(folder, ids, frames, ["--greedy", "--eager"])
    report.check("graphs-vs-eager", eager == greedy, f"{len(greedy)} frames from graphs, {len(eager)} eagerly")
    a = program.codes(folder, ids, frames, ["--seed", "7"])
    b = program.codes(folder, ids, frames, ["--seed", "7"])
    c = program.codes(folder, ids, frames, ["--seed", "8"])
    report.check("sampling", a == b and a != c and len(a) > 0,
                 f"seed 7: {len(a)} frames, again {'the same' if a == b else 'different'}; seed 8 "
                 f"{'differs' if a != c else 'the same'}")


# ---- --self-test: the reimplementation against qwen-tts itself ----

class Captured(Exception):
    pass


def captured_prompt(official, ids, streaming, speaker=SPEAKER, language="auto", instruct=None):
    """The talker's inputs that qwen-tts's generate builds for `ids`: its talker.generate is replaced by
    one that records them and stops."""
    seen = {}

    def record(**kwargs):
        seen.update(kwargs)
        raise Captured()

    model = official.model
    original, model.talker.generate = model.talker.generate, record
    try:
        model.generate(input_ids=[torch.tensor([ids], device=DEVICE)], languages=[language], speakers=[speaker or None],
                       instruct_ids=[torch.tensor([instruct], device=DEVICE) if instruct else None],
                       non_streaming_mode=not streaming)
    except Captured:
        pass
    finally:
        model.talker.generate = original
    return seen["inputs_embeds"][0], seen["trailing_text_hidden"][0], seen["tts_pad_embed"][0, 0]


def check_mrope_rule(report):
    """mrope_pairs (mrope.hpp's rule) against qwen-tts's apply_multimodal_rotary_pos_emb with three
    different ids per token, interleaved and in blocks, even and uneven sections."""
    from qwen_tts.core.models.modeling_qwen3_tts import apply_multimodal_rotary_pos_emb
    worst = 0.0
    for sections, interleaved in (([24, 20, 20], True), ([24, 20, 20], False), ([20, 8, 4], True)):
        d = 2 * sum(sections)
        inv = 1.0 / (1e6 ** (torch.arange(0, d, 2, device=DEVICE).float() / d))
        ids = torch.tensor([5, 1234, 77777], device=DEVICE).float()
        emb = torch.cat([ids[:, None] * inv] * 2, -1)[:, None, None, :]  # [3, batch, tokens, d]
        q = torch.zeros(1, 1, 1, d, device=DEVICE)
        q[..., : d // 2] = 1  # q_embed's first half is then the cos each pair is turned by
        turned, _ = apply_multimodal_rotary_pos_emb(q, q, emb.cos(), emb.sin(), sections, interleaved)
        comp = mrope_pairs(sections, interleaved, d // 2)
        ours = emb.cos()[comp, 0, 0, torch.arange(d // 2, device=DEVICE)]
        worst = max(worst, float((turned[0, 0, 0, : d // 2] - ours).abs().max()))
    report.check("self-test.mrope", worst == 0.0, f"ids 5, 1234, 77777: largest difference {worst}")


def check_program_prompts(report, program, official, fp32, cfg):
    """`cute-cpp-tts prompt` (build_prompt, prompt.hpp) against the inputs qwen-tts's generate builds:
    speakers with and without a dialect and none, languages auto / chinese / english, both modes, with
    and without an instruction."""
    folder = Path(tempfile.mkdtemp(prefix="tts-prompt-"))
    (folder / "config.json").write_text(json.dumps(cfg))
    ids = assistant_ids(torch.Generator().manual_seed(9), 6)
    instruct = [TEXT["im_start"], 872, 198, 55, 66, TEXT["im_end"], 198]
    cases, bad = 0, []
    for speaker in [SPEAKER, "eric", ""]:
        for language in ["auto", "chinese", "english"]:
            for streaming in (False, True):
                for ins in ([], instruct):
                    args = ["prompt", "--model", str(folder), "--ids", ",".join(map(str, ids)), "--language", language]
                    args += (["--speaker", speaker] if speaker else []) + (["--streaming"] if streaming else [])
                    args += ["--instruct-ids", ",".join(map(str, ins))] if ins else []
                    p = json.loads(program.run(args))
                    embeds, trailing, _ = captured_prompt(official, ids, streaming, speaker, language, ins)
                    ours = fp32.rows([tuple(r) for r in p["rows"]])
                    ours_trailing = fp32.rows([(t, -1) for t in p["trailing"]] or [(p["pad"], -1)])
                    ok = (ours.shape == embeds.shape and ours_trailing.shape == trailing.shape and
                          float((ours - embeds).abs().max()) <= 1e-5 and float((ours_trailing - trailing).abs().max()) <= 1e-5)
                    cases += 1
                    if not ok:
                        bad.append(f"{speaker or '-'}/{language}/{'stream' if streaming else 'non-stream'}/"
                                   f"{'instruct' if ins else '-'}")
    report.check("self-test.program-prompts", not bad, f"{cases - len(bad)} of {cases} prompts equal to qwen-tts's; "
                 f"differing: {', '.join(bad[:6]) or 'none'}")


def self_test(report, frames, program=None):
    """Tiny widths, real vocabularies and ids: the float32 reimplementation (prompt rows, talker and
    code predictor logits, greedy frames) against qwen-tts's own generate on the same weights; with
    the program, its prompt rows too."""
    cfg = config(2, tiny=True)
    t = cfg["talker_config"]
    t["spk_id"]["eric"], t["spk_is_dialect"]["eric"] = 3070, "sichuan_dialect"
    t["codec_language_id"]["sichuan_dialect"] = 2062
    weights = random_weights(cfg)
    official, source = qwen_tts_reference(cfg, weights)
    if official is None:
        report.check("self-test.qwen-tts", False, source)
        return
    fp32 = Reference(cfg, weights, torch.float32)
    ids = assistant_ids(torch.Generator().manual_seed(3), 7)
    with torch.no_grad():
        for streaming in (False, True):
            embeds, trailing, pad = captured_prompt(official, ids, streaming)
            rows, text = build_prompt(ids, streaming)
            ours = fp32.rows(rows)
            ours_trailing = fp32.rows([(t, -1) for t in text]) if text else pad[None]
            same = ours.shape == embeds.shape and ours_trailing.shape == trailing.shape
            err = max(float((ours - embeds).abs().max()), float((ours_trailing - trailing).abs().max())) if same else -1
            report.check(f"self-test.prompt{'-streaming' if streaming else ''}", same and err <= 1e-5,
                         f"{len(rows)} rows (qwen-tts {embeds.shape[0]}), {len(text)} trailing (qwen-tts "
                         f"{trailing.shape[0]}), largest difference {err:.2e}")
        rows, _ = build_prompt(ids, False)
        h, logits = fp32.talker(fp32.rows(rows))
        oh, ol = official.talker(fp32.rows(rows))
        codes = torch.randint(0, 2048, (GROUPS,), generator=torch.Generator().manual_seed(4)).tolist()
        a = float(row_cosines(logits, ol).min())
        b = float(row_cosines(fp32.predictor(h[-1], codes), official.predictor(oh, codes)).min())
        report.check("self-test.logits", a >= 0.99999 and b >= 0.99999, f"talker min cosine {a:.7f}, code predictor {b:.7f}")
        for streaming in (False, True):
            rows, trailing = build_prompt(ids, streaming)
            theirs, _ = official.model.generate(input_ids=[torch.tensor([ids], device=DEVICE)], languages=["auto"],
                                                speakers=[SPEAKER], non_streaming_mode=not streaming,
                                                max_new_tokens=frames + 1, do_sample=False, subtalker_dosample=False,
                                                repetition_penalty=1.05)
            theirs = theirs[0].tolist()
            ours = fp32.greedy(rows, frames, trailing)
            first = next((i for i, (x, y) in enumerate(zip(ours, theirs)) if x != y), min(len(ours), len(theirs)))
            report.check(f"self-test.greedy{'-streaming' if streaming else ''}", ours == theirs and len(ours) > 0,
                         f"{len(ours)} frames here, {len(theirs)} from qwen-tts's generate; first difference at frame "
                         f"{first}")
        report.guarded("self-test.mrope", check_mrope_rule, report)
        if program is not None:
            report.guarded("self-test.program-prompts", check_program_prompts, report, program, official, fp32, cfg)


def main():
    global DEVICE
    ap = argparse.ArgumentParser()
    ap.add_argument("--build")
    ap.add_argument("--self-test", action="store_true",
                    help="no program: the reimplementation against qwen-tts at tiny widths (needs qwen_tts)")
    ap.add_argument("--device", default="cuda")
    ap.add_argument("--work")
    ap.add_argument("--json")
    ap.add_argument("--talker-layers", type=int, default=4)
    ap.add_argument("--frames", type=int, default=20)
    opts = ap.parse_args()
    DEVICE = opts.device
    if opts.self_test:
        report = Report()
        program = Program(Path(opts.build) / "models/qwen3_tts/cute-cpp-tts") if opts.build else None
        self_test(report, opts.frames, program)
        print(f"{report.passed} passed, {report.failed} failed")
        return 0 if report.failed == 0 else 1
    if not opts.build:
        ap.error("--build is required (or --self-test)")
    program = Program(Path(opts.build) / "models/qwen3_tts/cute-cpp-tts")
    work = Path(opts.work or tempfile.mkdtemp(prefix="check-tts-"))
    folder = work / "qwen3-tts-1.7b"
    folder.mkdir(parents=True, exist_ok=True)
    report = Report()
    start = time.time()
    from safetensors.torch import save_file
    cfg = config(opts.talker_layers)
    weights = random_weights(cfg)
    (folder / "config.json").write_text(json.dumps(cfg, indent=1))
    save_file({k: v.contiguous() for k, v in weights.items()}, str(folder / "model.safetensors"))
    official, source = qwen_tts_reference(cfg, weights)
    print(f"reference: float32 reimplementation; {source}", flush=True)
    refs = (Reference(cfg, weights, torch.float32), Reference(cfg, weights, torch.bfloat16), official)
    gen = torch.Generator().manual_seed(5)
    ids = assistant_ids(gen, 23)
    codes = [int(torch.randint(0, 2048, (1,), generator=gen))] + torch.randint(0, 2048, (GROUPS - 1,), generator=gen).tolist()
    worst = report.guarded("logits", check_logits, report, program, folder, work, refs, ids, codes, False)
    report.guarded("logits-streaming", check_logits, report, program, folder, work, refs, ids, codes, True)
    greedy = report.guarded("greedy", check_greedy, report, program, folder, refs, ids, opts.frames)
    report.guarded("greedy-streaming", check_greedy, report, program, folder, refs, ids, opts.frames, True)
    if greedy is not None:
        report.guarded("program-modes", check_program_modes, report, program, folder, ids, opts.frames, greedy)
    print(f"{report.passed} passed, {report.failed} failed ({time.time() - start:.0f} s)")
    if opts.json and worst is not None:
        Path(opts.json).write_text(json.dumps([{"name": "qwen3_tts logits vs fp32", "value": worst, "unit": "cosine",
                                                 "shape": f"Qwen3-TTS-1.7B ({opts.talker_layers}/28 talker layers)"}]))
    return 0 if report.failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
