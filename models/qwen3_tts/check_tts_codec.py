#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: 2026 cute-cpp authors
"""GPU check of Qwen3-TTS's speech-tokenizer decoder (models/qwen3_tts/cute-cpp-tts-codec) against a float64 reference.

  check_tts_codec.py --build BUILD [--work DIR] [--json FILE] [--layers 8] [--min-snr 40]

Writes a random-weight tokenizer checkpoint at the published Qwen3-TTS-Tokenizer-12Hz decoder widths (codebooks
16 x 2048 x 256, codebook_dim 512, latent 1024, hidden 512, 16 heads of 64, MLP 1024, window 72, decoder_dim 1536,
upsampling (2, 2) then (8, 5, 4, 3)) with --layers transformer layers (default the published 8), float32 tensors
under the reference's decoder.* names, runs BUILD/models/qwen3_tts/cute-cpp-tts-codec on random codes, and compares
its waveform with the reference in float64 on the GPU: the qwen_tts package's Qwen3TTSTokenizerV2Decoder when it
imports (it pins transformers 4.57), else the float64 torch decoder written below from the same facts (split RVQ with
embedding_sum / max(cluster_usage, 1e-5); causal convs padded (k-1)d on the left; causal transposed convs trimmed
k - s on the right; RMSNorm, RoPE (rotate-half), causal attention over the last sliding_window keys, layer scales,
SwiGLU; ConvNeXt with LayerNorm eps 1e-6 and the erf GELU; SnakeBeta with log parameters, eps 1e-9; clamp). When
qwen_tts imports, the torch decoder is also checked against it (reference.self-check).

Weights (rounded to values bf16 holds, stored as float32): matrices N(0, 1/fan-in), the residual units' second
conv at gain 0.3, biases N(0, 0.1^2), norms 1 + 0.1 N, layer scales and gamma 0.1-0.3, SnakeBeta log alpha
N(0, 0.2^2) and log beta log 4 + N(0, 0.2^2), cluster usage uniform in [0.5, 2]; the output conv is rescaled so
the waveform's std is about 0.3 before the clamp (so little of it is clamped). These keep the decoder's activations
of order 1 and its SnakeBetas from amplifying rounding (see the NOTEs below).

Checks (SNR = 10 log10(sum ref^2 / sum (ours - ref)^2) over all samples; each passes at --min-snr dB, or at most 3 dB
below the float64 decoder that rounds its activations to bf16 where ours stores them, computed on the same codes:
bf16 storage alone costs about 40 dB here):
  whole          2 sequences x 100 frames in one decode against the reference's forward;
  chunked        1 x 340 frames, --chunked (300-frame chunks, 25 frames of context) against chunked_decode;
  stream         2 x 100 frames pushed 5 at a time into a stream of 12-frame chunks (25 of context) against
                 chunked_decode(12, 25), and equal to --chunked with the same settings sample for sample;
  bad-input.*    a code of codebook_size, a missing tensor: exit 2 with the rule on stderr;
  bench          cute-cpp-tts-codec bench on a 325-frame window (300 + 25 of context), random weights: its median
                 time and real-time factor recorded.

Needs torch with CUDA, safetensors, numpy."""
import argparse
import json
import math
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "common"))
import check_report  # noqa: E402 -- the models' shared check report

try:
    import numpy as np
    import torch
    import torch.nn.functional as F
    from safetensors.torch import save_file
except ImportError as e:
    print(f"FAIL: {e}: check_tts_codec.py needs numpy, torch (with CUDA) and safetensors", file=sys.stderr)
    sys.exit(1)

DECODER_CONFIG = {
    "attention_bias": False, "latent_dim": 1024, "codebook_dim": 512, "codebook_size": 2048, "decoder_dim": 1536,
    "hidden_act": "silu", "hidden_size": 512, "intermediate_size": 1024, "layer_scale_initial_scale": 0.01,
    "max_position_embeddings": 8000, "head_dim": 64, "num_attention_heads": 16, "num_hidden_layers": 8,
    "num_key_value_heads": 16, "num_quantizers": 16, "num_semantic_quantizers": 1, "rms_norm_eps": 1e-5,
    "rope_theta": 10000, "sliding_window": 72, "upsample_rates": [8, 5, 4, 3], "upsampling_ratios": [2, 2],
}
TOKENIZER_CONFIG = {"model_type": "qwen3_tts_tokenizer_12hz", "architectures": ["Qwen3TTSTokenizerV2Model"],
                    "input_sample_rate": 24000, "output_sample_rate": 24000, "decode_upsample_rate": 1920,
                    "encode_downsample_rate": 1920}
DILATIONS = (1, 3, 9)
WAVE_STD = 0.3
# NOTE: the residual units' second conv at this gain keeps the decoder's activations of order 1: at gain 1 each
# unit doubles their variance (std ~100 before the output conv at the published depth), where SnakeBeta's
# sin^2(x e^alpha) turns bf16's rounding of x into noise of the signal's size (a bf16-storage emulation of the
# decoder reached 22 dB against float64 on a reduced-width copy; 0.3 keeps the std below ~5).
RESIDUAL_GAIN = 0.3
# NOTE: 40 dB against float64 is at the edge of what bf16 activations allow here: the float64 decoder rounding
# its activations to bf16 where the GPU decoder stores them (about 35 places at 2 layers, each alone costing
# 50-60 dB) reached 39.8 dB on a reduced-width copy with bf16-exact weights. So a check passes at --min-snr,
# or at most this many dB below that emulation on the same codes.
EMULATION_MARGIN = 3.0
# NOTE: SnakeBeta's sin^2 term at 1 / e^beta ~ 1/4 of x: large enough that a wrong alpha, beta or eps shows
# (errors of -20 dB), small enough that its slope 1 + (e^alpha / e^beta) sin(2 x e^alpha) does not amplify
# the bf16 rounding of each stage's input over the decoder's 12 SnakeBetas (at beta ~ 1 the emulation
# stayed near 29 dB).
SNAKE_LOG_BETA = math.log(4.0)
TIMEOUT_S = 300


Report = check_report.Report  # models/common/check_report.py


# ---- the random checkpoint ----

class RandomState:
    """The decoder's tensors (reference names without the 'decoder.' prefix), drawn part by part."""

    def __init__(self, cfg, gen):
        self.cfg, self.gen, self.s = cfg, gen, {}

    def normal(self, *shape, std=1.0, mean=0.0):
        return mean + std * torch.randn(*shape, generator=self.gen, dtype=torch.float64)

    def uniform(self, *shape, lo, hi):
        return lo + (hi - lo) * torch.rand(*shape, generator=self.gen, dtype=torch.float64)

    def snake(self, prefix, n):  # log alpha, log beta
        self.s[prefix + "alpha"], self.s[prefix + "beta"] = self.normal(n, std=0.2), \
            self.normal(n, std=0.2, mean=SNAKE_LOG_BETA)

    def conv(self, name, c_out, c_in, k, stride=0, gain=1.0):  # stride > 0: a transposed conv (c_in, c_out, k)
        fan_in = c_in * (k // stride if stride else k)
        self.s[name + ".weight"] = self.normal(*((c_in, c_out, k) if stride else (c_out, c_in, k)),
                                               std=gain / math.sqrt(fan_in))
        self.s[name + ".bias"] = self.normal(c_out, std=0.1)

    def linear(self, name, n, k, bias):
        self.s[name + ".weight"] = self.normal(n, k, std=1 / math.sqrt(k))
        if bias:
            self.s[name + ".bias"] = self.normal(n, std=0.1)

    def quantizer(self):
        c, s = self.cfg, self.s
        size, cd, entry = c["codebook_size"], c["codebook_dim"], c["codebook_dim"] // 2
        for half, count in (("rvq_first", 1), ("rvq_rest", c["num_quantizers"] - 1)):
            for i in range(count):
                p = f"quantizer.{half}.vq.layers.{i}._codebook."
                s[p + "cluster_usage"] = self.uniform(size, lo=0.5, hi=2.0)
                s[p + "embedding_sum"] = self.normal(size, entry) * s[p + "cluster_usage"][:, None]
            s[f"quantizer.{half}.output_proj.weight"] = self.normal(cd, entry, 1, std=1 / math.sqrt(entry * count))
            s[f"quantizer.{half}.input_proj.weight"] = self.normal(entry, cd, 1, std=1 / math.sqrt(cd))  # encode only
        self.conv("pre_conv.conv", c["latent_dim"], cd, 3)

    def transformer(self):
        c, s, t = self.cfg, self.s, "pre_transformer."
        hidden, inter = c["hidden_size"], c["intermediate_size"]
        attn, kv = c["num_attention_heads"] * c["head_dim"], c["num_key_value_heads"] * c["head_dim"]
        self.linear(t + "input_proj", hidden, c["latent_dim"], True)
        for i in range(c["num_hidden_layers"]):
            p = f"{t}layers.{i}."
            s[p + "input_layernorm.weight"] = self.normal(hidden, std=0.1, mean=1.0)
            s[p + "post_attention_layernorm.weight"] = self.normal(hidden, std=0.1, mean=1.0)
            for name, n in (("q_proj", attn), ("k_proj", kv), ("v_proj", kv)):
                self.linear(p + "self_attn." + name, n, hidden, False)
            self.linear(p + "self_attn.o_proj", hidden, attn, False)
            for name in ("gate_proj", "up_proj"):
                self.linear(p + "mlp." + name, inter, hidden, False)
            self.linear(p + "mlp.down_proj", hidden, inter, False)
            s[p + "self_attn_layer_scale.scale"] = self.uniform(hidden, lo=0.1, hi=0.3)
            s[p + "mlp_layer_scale.scale"] = self.uniform(hidden, lo=0.1, hi=0.3)
        s[t + "norm.weight"] = self.normal(hidden, std=0.1, mean=1.0)
        self.linear(t + "output_proj", c["latent_dim"], hidden, True)

    def upsamplers(self):
        s, latent = self.s, self.cfg["latent_dim"]
        for i, ratio in enumerate(self.cfg["upsampling_ratios"]):
            p = f"upsample.{i}."
            self.conv(p + "0.conv", latent, latent, ratio, stride=ratio)
            s[p + "1.dwconv.conv.weight"] = self.normal(latent, 1, 7, std=1 / math.sqrt(7))
            s[p + "1.dwconv.conv.bias"] = self.normal(latent, std=0.1)
            s[p + "1.norm.weight"] = self.normal(latent, std=0.1, mean=1.0)
            s[p + "1.norm.bias"] = self.normal(latent, std=0.1)
            self.linear(p + "1.pwconv1", 4 * latent, latent, True)
            self.linear(p + "1.pwconv2", latent, 4 * latent, True)
            s[p + "1.gamma"] = self.uniform(latent, lo=0.1, hi=0.3)

    def decoder(self):
        dim, rates = self.cfg["decoder_dim"], self.cfg["upsample_rates"]
        self.conv("decoder.0.conv", dim, self.cfg["latent_dim"], 7)
        for i, rate in enumerate(rates):
            p, w_in, w_out = f"decoder.{i + 1}.block.", dim >> i, dim >> (i + 1)
            self.snake(p + "0.", w_in)
            self.conv(p + "1.conv", w_out, w_in, 2 * rate, stride=rate)
            for u, _ in enumerate(DILATIONS):
                r = f"{p}{u + 2}."
                self.snake(r + "act1.", w_out)
                self.snake(r + "act2.", w_out)
                self.conv(r + "conv1.conv", w_out, w_out, 7)
                self.conv(r + "conv2.conv", w_out, w_out, 1, gain=RESIDUAL_GAIN)
        self.snake(f"decoder.{len(rates) + 1}.", dim >> len(rates))
        self.conv(f"decoder.{len(rates) + 2}.conv", 1, dim >> len(rates), 7)


def random_state(cfg, gen):
    """The decoder's tensors as float64 holding values bf16 can hold: the decoder's rounding of its weights is
    then no error of its kernels (the folds at load time still round once more)."""
    r = RandomState(cfg, gen)
    r.quantizer()
    r.transformer()
    r.upsamplers()
    r.decoder()
    return {k: v.to(torch.bfloat16).to(torch.float64) for k, v in r.s.items()}


# ---- the float64 torch decoder (from the facts in the docstring) ----

def causal_conv(x, s, name, dilation=1, groups=1):
    w = s[name + ".weight"]
    return F.conv1d(F.pad(x, ((w.shape[-1] - 1) * dilation, 0)), w, s[name + ".bias"], dilation=dilation, groups=groups)


def causal_conv_transpose(x, s, name, stride):
    w = s[name + ".weight"]
    y = F.conv_transpose1d(x, w, s[name + ".bias"], stride=stride)
    trim = w.shape[-1] - stride
    return y[..., : y.shape[-1] - trim] if trim else y


def snake(x, s, name):
    a, b = torch.exp(s[name + ".alpha"])[None, :, None], torch.exp(s[name + ".beta"])[None, :, None]
    return x + torch.sin(x * a) ** 2 / (b + 1e-9)


def rms_norm(x, w, eps):
    return w * (x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + eps))


def rotate(x, theta):  # x [B, H, T, D]
    # The reference computes RoPE's frequencies, angles, cos and sin in float32 whatever the model's dtype.
    d, t = x.shape[-1], x.shape[-2]
    inv = 1.0 / (theta ** (torch.arange(0, d, 2, device=x.device, dtype=torch.int64).float() / d))
    angle = torch.arange(t, device=x.device, dtype=torch.float32)[:, None] * inv[None, :]
    cos, sin = torch.cat([angle, angle], -1).cos().to(x.dtype), torch.cat([angle, angle], -1).sin().to(x.dtype)
    half = d // 2
    rotated = torch.cat([-x[..., half:], x[..., :half]], -1)
    return x * cos + rotated * sin


def transformer(h, s, cfg, q=lambda v: v):
    b, t, _ = h.shape
    heads, kv, hd, eps = cfg["num_attention_heads"], cfg["num_key_value_heads"], cfg["head_dim"], cfg["rms_norm_eps"]
    p = "pre_transformer."
    h = q(F.linear(h, s[p + "input_proj.weight"], s[p + "input_proj.bias"]))
    i = torch.arange(t, device=h.device)
    allowed = (i[None, :] <= i[:, None]) & (i[None, :] > i[:, None] - cfg["sliding_window"])
    for layer in range(cfg["num_hidden_layers"]):
        q_ = f"{p}layers.{layer}."
        n = q(rms_norm(h, s[q_ + "input_layernorm.weight"], eps))
        qs = q(F.linear(n, s[q_ + "self_attn.q_proj.weight"])).view(b, t, heads, hd).transpose(1, 2)
        k = q(F.linear(n, s[q_ + "self_attn.k_proj.weight"])).view(b, t, kv, hd).transpose(1, 2)
        v = q(F.linear(n, s[q_ + "self_attn.v_proj.weight"])).view(b, t, kv, hd).transpose(1, 2)
        qs, k = q(rotate(qs, cfg["rope_theta"])), q(rotate(k, cfg["rope_theta"]))
        k, v = k.repeat_interleave(heads // kv, 1), v.repeat_interleave(heads // kv, 1)
        scores = (qs @ k.transpose(-1, -2)) * hd ** -0.5
        scores = scores.masked_fill(~allowed, float("-inf"))
        o = q(torch.softmax(scores.float() if h.dtype == torch.bfloat16 else scores, -1).to(h.dtype) @ v)
        o = F.linear(o.transpose(1, 2).reshape(b, t, heads * hd), s[q_ + "self_attn.o_proj.weight"])
        h = q(h + s[q_ + "self_attn_layer_scale.scale"] * o)
        n = q(rms_norm(h, s[q_ + "post_attention_layernorm.weight"], eps))
        m = q(F.silu(F.linear(n, s[q_ + "mlp.gate_proj.weight"])) * F.linear(n, s[q_ + "mlp.up_proj.weight"]))
        h = q(h + s[q_ + "mlp_layer_scale.scale"] * F.linear(m, s[q_ + "mlp.down_proj.weight"]))
    h = q(rms_norm(h, s[p + "norm.weight"], eps))
    return q(F.linear(h, s[p + "output_proj.weight"], s[p + "output_proj.bias"]))


def torch_decode(codes, s, cfg, clamp=True, q=lambda v: v):
    """codes [B, Q, T] (long) -> waveform [B, 1, T * 1920], in the dtype of s's tensors; q rounds the
    activations where the GPU decoder stores them (identity: none)."""
    def rvq(half, first, count):
        acc = 0
        for i in range(count):
            p = f"quantizer.{half}.vq.layers.{i}._codebook."
            table = s[p + "embedding_sum"] / s[p + "cluster_usage"].clamp(min=1e-5)[:, None]
            acc = acc + F.embedding(codes[:, first + i], table)  # [B, T, entry]
        return F.conv1d(acc.transpose(1, 2), s[f"quantizer.{half}.output_proj.weight"])

    x = q(rvq("rvq_first", 0, 1) + rvq("rvq_rest", 1, cfg["num_quantizers"] - 1))
    x = q(causal_conv(x, s, "pre_conv.conv"))
    x = transformer(x.transpose(1, 2), s, cfg, q).transpose(1, 2)
    latent = cfg["latent_dim"]
    for i, ratio in enumerate(cfg["upsampling_ratios"]):
        p = f"upsample.{i}."
        x = q(causal_conv_transpose(x, s, p + "0.conv", ratio))
        y = q(causal_conv(x, s, p + "1.dwconv.conv", groups=latent)).transpose(1, 2)
        y = q(F.layer_norm(y, (latent,), s[p + "1.norm.weight"], s[p + "1.norm.bias"], eps=1e-6))
        y = F.linear(q(F.gelu(F.linear(y, s[p + "1.pwconv1.weight"], s[p + "1.pwconv1.bias"]))),
                     s[p + "1.pwconv2.weight"], s[p + "1.pwconv2.bias"])
        x = q(x + (s[p + "1.gamma"] * y).transpose(1, 2))
    x = q(causal_conv(x, s, "decoder.0.conv"))
    for i, rate in enumerate(cfg["upsample_rates"]):
        p = f"decoder.{i + 1}.block."
        x = q(causal_conv_transpose(q(snake(x, s, p + "0")), s, p + "1.conv", rate))
        for u, d in enumerate(DILATIONS):
            r = f"{p}{u + 2}."
            y = q(snake(causal_conv(q(snake(x, s, r + "act1")), s, r + "conv1.conv", dilation=d), s, r + "act2"))
            x = q(x + causal_conv(y, s, r + "conv2.conv"))
    blocks = len(cfg["upsample_rates"])
    x = q(causal_conv(q(snake(x, s, f"decoder.{blocks + 1}")), s, f"decoder.{blocks + 2}.conv"))
    return x.clamp(-1, 1) if clamp else x


def chunked(decode, codes, spf, chunk, left):
    """The reference's chunked decode over any whole-decode function."""
    pieces, start, frames = [], 0, codes.shape[-1]
    while start < frames:
        end = min(start + chunk, frames)
        context = left if start - left > 0 else start
        pieces.append(decode(codes[..., start - context: end])[..., context * spf:])
        start = end
    return torch.cat(pieces, -1)


def qwen_tts_decoder(state, cfg):
    """qwen_tts's decoder in float64 with `state` loaded, or None when the package does not import."""
    try:
        from qwen_tts.core.tokenizer_12hz.configuration_qwen3_tts_tokenizer_v2 import Qwen3TTSTokenizerV2DecoderConfig
        from qwen_tts.core.tokenizer_12hz.modeling_qwen3_tts_tokenizer_v2 import Qwen3TTSTokenizerV2Decoder
        config = Qwen3TTSTokenizerV2DecoderConfig(**cfg)
        config._attn_implementation = "eager"
        model = Qwen3TTSTokenizerV2Decoder(config).double().cuda().eval()
        model.load_state_dict({k: v for k, v in state.items()}, strict=True)
        return model
    except Exception as e:  # noqa: BLE001 -- any failure means: use the torch decoder
        print(f"note: qwen_tts not used ({type(e).__name__}: {str(e)[:200]}); the float64 torch decoder is the reference")
        return None


# ---- the program ----

class Program:
    def __init__(self, path, work):
        self.path, self.work = path, work

    def run(self, args):
        return subprocess.run([str(self.path), *map(str, args)], capture_output=True, text=True, timeout=TIMEOUT_S)

    def decode(self, folder, codes, extra=()):
        b, q, t = codes.shape
        codes_file, out_file = self.work / "codes.bin", self.work / "wave.bin"
        codes.astype("<i4").tofile(codes_file)
        r = self.run(["decode", "--model", folder, "--codes", codes_file, "--batch", b, "--frames", t, "--out",
                      out_file, *extra])
        if r.returncode != 0:
            raise RuntimeError(f"cute-cpp-tts-codec exited {r.returncode}: {r.stderr.strip()[:400]}")
        return np.fromfile(out_file, dtype=np.float32).reshape(b, -1).astype(np.float64)


def snr_db(ours, ref):
    noise = float(((ours - ref) ** 2).sum())
    return math.inf if noise == 0 else 10 * math.log10(float((ref ** 2).sum()) / noise)


def compare(report, name, ours, ref, emulated, min_snr, detail):
    """ours against the float64 reference: SNR >= min_snr, or within EMULATION_MARGIN dB of the float64 decoder
    that rounds its activations to bf16 where ours stores them (what bf16 storage alone allows)."""
    snr, snr_emulated = snr_db(ours, ref), snr_db(emulated, ref)
    needed = min(min_snr, snr_emulated - EMULATION_MARGIN)
    clamped = float((np.abs(ref) >= 1).mean())
    ok = bool(np.isfinite(ours).all()) and ours.shape == ref.shape and snr >= needed
    report.check(name, ok, f"{detail}: SNR ours {snr:.1f} dB, bf16-storage emulation {snr_emulated:.1f} dB (needs >= "
                           f"{needed:.1f}: {min_snr:g}, or the emulation's less {EMULATION_MARGIN:g}); max |error| "
                           f"{np.abs(ours - ref).max():.3g}; reference std {ref.std():.3f}, {100 * clamped:.2f}% clamped")
    report.records.append({"kernel": f"tts-codec {name} vs float64", "shape": detail, "dtype": "bf16",
                           "ours": snr, "reference": "bf16-storage emulation", "reference_value": snr_emulated,
                           "unit": "SNR dB", "ratio": snr / snr_emulated if snr_emulated > 0 else 0.0,
                           "microseconds": 0.0})


class Checks:
    """The checks of one checkpoint: the program's decodes against the reference's on the same codes."""

    def __init__(self, program, folder, state, cfg, codes, min_snr):
        self.program, self.folder, self.state, self.cfg, self.codes = program, folder, state, cfg, codes
        self.min_snr = min_snr
        self.spf = math.prod(cfg["upsampling_ratios"]) * math.prod(cfg["upsample_rates"])
        self.reference = qwen_tts_decoder(state, cfg)

    def ref_decode(self, c):
        with torch.no_grad():
            return self.reference(c) if self.reference is not None else torch_decode(c, self.state, self.cfg)

    def emulated_decode(self, c):  # the float64 decoder with its activations rounded to bf16 where ours stores them
        with torch.no_grad():
            return torch_decode(c, self.state, self.cfg, q=lambda v: v.to(torch.bfloat16).to(torch.float64))

    def cuda_codes(self, name):
        return torch.from_numpy(self.codes[name]).cuda()

    def self_check(self, report):
        c = self.cuda_codes("whole")
        with torch.no_grad():
            ours = as_numpy(torch_decode(c, self.state, self.cfg))
        snr = snr_db(ours, as_numpy(self.ref_decode(c)))
        # NOTE: not ~300 dB: qwen_tts computes RMSNorm and RoPE's cos/sin in float32 in a float64 model (the
        # torch decoder copies the RoPE part only); a reduced-width copy agreed at 144 dB.
        report.check("reference.self-check", snr >= 100, f"torch float64 decoder vs qwen_tts: SNR {snr:.1f} dB "
                                                         f"(needs >= 100)")

    def whole(self, report):
        c = self.codes["whole"]
        ct = self.cuda_codes("whole")
        compare(report, "whole", self.program.decode(self.folder, c), as_numpy(self.ref_decode(ct)),
                as_numpy(self.emulated_decode(ct)), self.min_snr, f"{c.shape[0]} x {c.shape[2]} frames, one decode")

    def chunked(self, report):
        c = self.codes["chunked"]
        ct = self.cuda_codes("chunked")
        compare(report, "chunked", self.program.decode(self.folder, c, ["--chunked"]),
                as_numpy(chunked(self.ref_decode, ct, self.spf, 300, 25)),
                as_numpy(chunked(self.emulated_decode, ct, self.spf, 300, 25)), self.min_snr,
                f"{c.shape[0]} x {c.shape[2]} frames, chunks of 300 with 25 of context")

    def stream(self, report):
        c = self.codes["stream"]
        ct = self.cuda_codes("stream")
        settings = ["--chunk", 12, "--left-context", 25]
        streamed = self.program.decode(self.folder, c, ["--stream", 5, *settings])
        compare(report, "stream", streamed, as_numpy(chunked(self.ref_decode, ct, self.spf, 12, 25)),
                as_numpy(chunked(self.emulated_decode, ct, self.spf, 12, 25)), self.min_snr,
                f"{c.shape[0]} x {c.shape[2]} frames pushed 5 at a time, chunks of 12 with 25 of context")
        same = self.program.decode(self.folder, c, ["--chunked", *settings])
        diff = float(np.abs(same - streamed).max())
        report.check("stream-equals-chunked", diff == 0.0, f"max |stream - chunked| {diff:.3g} (needs 0)")

    def expect_error(self, report, name, rule, folder, codes, what):
        try:
            self.program.decode(folder, codes)
            report.check(name, False, f"{what} was accepted")
        except RuntimeError as e:
            report.check(name, f"[{rule}]" in str(e), str(e)[:200])

    def bad_input(self, report):
        c = self.codes["whole"].copy()
        c[1, 3, 5] = self.cfg["codebook_size"]
        self.expect_error(report, "bad-input.code", "tts-codec.codes", self.folder, c, "a code of codebook_size")
        broken = self.program.work / "broken"
        shutil.rmtree(broken, ignore_errors=True)
        write_checkpoint(broken, self.cfg, {k: v for k, v in self.state.items() if k != "pre_conv.conv.bias"})
        self.expect_error(report, "bad-input.missing-tensor", "tts-codec.tensor-missing", broken,
                          self.codes["whole"][:, :, :4], "a checkpoint without pre_conv.conv.bias")


    def bench(self, report):
        """The decode of the reference's 325-frame window (300 + 25 of context), random weights on the device."""
        r = self.program.run(["bench", "--model", self.folder, "--random-weights", 1, "--frames", 325, "--iters", 10])
        line = r.stdout.strip().splitlines()[-1] if r.stdout.strip() else r.stderr.strip()[:300]
        match = re.search(r"median ([0-9.]+) ms, ([0-9.]+)x real time", line)
        report.check("bench", r.returncode == 0 and match is not None, line)
        if match:
            ms, speed = float(match.group(1)), float(match.group(2))
            report.records.append({"kernel": "tts-codec decode (random weights)", "shape": f"1 x 325 frames, "
                                   f"{self.cfg['num_hidden_layers']} layers", "dtype": "bf16", "ours": speed,
                                   "reference": "real time", "reference_value": 1.0, "unit": "x real time",
                                   "ratio": speed, "microseconds": 1000.0 * ms})


def as_numpy(w):
    return w[:, 0].double().cpu().numpy()


def write_checkpoint(folder, cfg, state):
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "config.json").write_text(json.dumps(dict(TOKENIZER_CONFIG, decoder_config=cfg), indent=1))
    save_file({"decoder." + k: v.to(torch.float32).contiguous().cpu() for k, v in state.items()},
              str(folder / "model.safetensors"))


def scaled_output(state, cfg, codes, device="cuda"):
    """The output conv rescaled (in place) for a waveform of std ~WAVE_STD before the clamp."""
    with torch.no_grad():
        raw = torch_decode(torch.from_numpy(codes).to(device), state, cfg, clamp=False)
        scale = WAVE_STD / float(raw.std())
        out = f"decoder.{len(cfg['upsample_rates']) + 2}.conv."
        for part in ("weight", "bias"):
            state[out + part] = (state[out + part] * scale).to(torch.bfloat16).to(torch.float64)


def parse_options():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", required=True)
    ap.add_argument("--work", help="keep the checkpoint and files here (default: a temporary folder)")
    ap.add_argument("--json", help="write the records here")
    ap.add_argument("--layers", type=int, default=8, help="transformer layers (published: 8)")
    ap.add_argument("--min-snr", type=float, default=40.0)
    return ap.parse_args()


def main():
    opts = parse_options()
    binary = Path(opts.build) / "models/qwen3_tts/cute-cpp-tts-codec"
    if not binary.is_file():
        print(f"FAIL: {binary} is not a file (build the target cute-cpp-tts-codec)", file=sys.stderr)
        return 1
    if not torch.cuda.is_available():
        print("FAIL: torch sees no CUDA device; the reference runs on the GPU", file=sys.stderr)
        return 1
    temporary = opts.work is None
    work = Path(tempfile.mkdtemp(prefix="tts_codec_check_") if temporary else opts.work)
    work.mkdir(parents=True, exist_ok=True)
    cfg = dict(DECODER_CONFIG, num_hidden_layers=opts.layers)
    state = {k: v.cuda() for k, v in random_state(cfg, torch.Generator().manual_seed(20261205)).items()}
    rng = np.random.default_rng(7)
    codes = {name: rng.integers(0, cfg["codebook_size"], size=shape)
             for name, shape in (("whole", (2, 16, 100)), ("chunked", (1, 16, 340)), ("stream", (2, 16, 100)))}
    scaled_output(state, cfg, codes["whole"])
    folder = work / "checkpoint"
    write_checkpoint(folder, cfg, state)

    report = Report()
    checks = Checks(Program(binary, work), folder, state, cfg, codes, opts.min_snr)
    if checks.reference is not None:
        report.guarded("reference.self-check", checks.self_check)
    for name in ("whole", "chunked", "stream", "bad_input", "bench"):
        report.guarded(name.replace("_", "-"), getattr(checks, name))
    return check_report.finish(report, opts.json, work, temporary)


if __name__ == "__main__":
    sys.exit(main())
