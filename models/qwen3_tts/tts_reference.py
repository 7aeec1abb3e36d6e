#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: 2026 cute-cpp authors
"""The reference check_tts.py compares cute-cpp-tts with: a Qwen3-TTS config and random weights at the
1.7B widths (or tiny ones), and the talker and code predictor written in torch from the published
architecture (Qwen3 layers: RMSNorm, q/k RMSNorm per head, GQA, SwiGLU; the talker's multimodal RoPE,
its pairs interleaved among the three ids; the text projection MLP with biases; small_to_mtp_projection;
the prompt rows and the generate loop of qwen-tts 0.1.1), in float32 or bf16; and qwen-tts's own modules
where `qwen_tts` imports. check_tts.py --self-test checks the first against the second.
Set DEVICE before use ("cuda", or "cpu")."""
import math

import torch

DEVICE = "cuda"  # check_tts.py --device
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
