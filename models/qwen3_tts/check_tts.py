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
float32 torch reimplementation of the talker and code predictor (tts_reference.py) from the published
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
  graphs-vs-eager                        greedy codes replayed from the frame's CUDA graph (its kernel edges
                                         programmatic, the default) and launched eagerly (--eager) are the same.
  graphs-no-pdl-vs-eager                 the same with the graph's edges plain (--no-pdl).
  greedy-fused                           `greedy` with each talker and code-predictor step one launch
                                         (--fused-steps, models/qwen3/fused_step.hpp), the same rule.
  fused-graphs-vs-eager                  fused steps' greedy codes from the frame's graph and eagerly: the same.
  sampling                               seeded sampling: seed 7 twice gives the same codes, seed 8 others.
  synthesize                             with a random speech_tokenizer beside the checkpoint (check_tts_codec.py's
                                         writer, 1 transformer layer): `synthesize --greedy`'s WAV (mono, 16-bit,
                                         24 kHz, 1920 samples a frame) holds, within 1 LSB, the samples
                                         cute-cpp-tts-codec decodes from `codes --greedy`'s codes.
--self-test (no program, no GPU needed: --device cpu) checks the reimplementation itself against
qwen-tts at tiny widths with the real vocabularies and ids: the prompt embeddings its generate builds
(captured before its talker runs), both modes; talker and code-predictor logits; 8+ greedy frames of its
generate; with --build, also `cute-cpp-tts prompt` (the C++ prompt rows, no GPU) for 3 speakers (one with a
dialect, and none) x 3 languages x both modes x with and without an instruction. Run on the CPU with qwen-tts 0.1.1 under transformers 4.57.3 (torch 2.5.1): prompts equal to
1e-8, logits cosine 0.9999998, 24 greedy frames identical, the program's 36 prompts identical, the M-RoPE pair rule exact
with three different ids (interleaved and blocks).
--json writes one record (check_qwen3.py's schema): `qwen3_tts logits vs fp32`, the minimum cosine.
"""
import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import torch

import tts_reference as ref
from tts_reference import (GROUPS, SPEAKER, TEXT, Reference, assistant_ids, build_prompt, config, mrope_pairs,
                           qwen_tts_reference, random_weights, talker_scores)

TIMEOUT_S = 300

# ---- the program ----

class Program:
    def __init__(self, path):
        self.path = str(path)

    def run(self, args):
        r = subprocess.run([self.path, *args], capture_output=True, text=True, timeout=TIMEOUT_S)
        if r.returncode != 0:
            raise RuntimeError(f"{' '.join(args)[:200]} exited {r.returncode}: {r.stderr.strip()[:400]}")
        # A frame graph that fails to record or instantiate falls back to eager launches: a graphs
        # check would then compare eager with eager, so the fallback fails the run here.
        if "no CUDA graph" in r.stderr and "--eager" not in args:
            raise RuntimeError(f"{' '.join(args)[:200]}: {r.stderr.strip()[:400]}")
        return r.stdout

    def logits(self, folder, ids, codes, out, streaming=False):
        args = ["logits", "--model", str(folder), "--ids", ",".join(map(str, ids)), "--speaker", SPEAKER,
                "--codes", ",".join(map(str, codes)), "--out", str(out)] + (["--streaming"] if streaming else [])
        self.run(args)
        return torch.from_numpy(np.fromfile(out, dtype="float32")).to(ref.DEVICE)

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
    one value, and the tie goes to the smaller id). Rows: one per decision. Returns the largest
    ratio and its decision: (ratio, row, gap, tolerance, the bf16 reference's own gap between the
    float32 best and the chosen id)."""
    finite = torch.isfinite(z32) & torch.isfinite(z16)
    err = torch.where(finite, z16.float() - z32.float(), torch.zeros_like(z32)).pow(2).mean(-1).sqrt()
    best = z32.max(-1).values
    ulp = torch.exp2(torch.floor(torch.log2(best.abs().clamp(min=1e-30))) - 7)
    tol = torch.maximum(torch.clamp(3 * err, min=0.05), 2 * ulp)
    gap = z32.max(-1).values - z32.gather(-1, chosen[:, None])[:, 0]
    ratio = gap / tol
    row = int(ratio.argmax())
    best_id = z32[row].argmax()
    gap16 = float(z16[row, best_id].float() - z16[row, chosen[row]].float())
    return float(ratio[row]), row, float(gap[row]), float(tol[row]), gap16


def check_greedy(report, program, folder, refs, ids, frames, streaming=False, fused=False):
    fp32, bf16, _ = refs
    ours = program.codes(folder, ids, frames, ["--greedy"] + (["--streaming"] if streaming else []) +
                         (["--fused-steps"] if fused else []))
    rows, trailing = build_prompt(ids, streaming)
    worst, decisions, exact = (0.0, 0, 0, 0.0, 0.0, 0.0), 0, 0  # worst: ratio, frame, group, gap, tol, bf16 gap
    with torch.no_grad():
        e32, e16 = fp32.rows(rows), bf16.rows(rows)
        t32 = [fp32.text([t])[0] for t in trailing] + [fp32.text([TEXT["tts_pad"]])[0]]
        t16 = [bf16.text([t])[0] for t in trailing] + [bf16.text([TEXT["tts_pad"]])[0]]
        for f, codes in enumerate(ours):
            (h32, l32), (h16, l16) = fp32.talker(e32), bf16.talker(e16)
            firsts = [c[0] for c in ours[:f]]
            z32, z16 = talker_scores(l32[-1], firsts, f)[None], talker_scores(l16[-1], firsts, f)[None]
            chosen = torch.tensor(codes, device=ref.DEVICE)
            r, _, gap, tol, gap16 = near_tie_ratio(z32, z16, chosen[:1])
            worst = max(worst, (r, f, 0, gap, tol, gap16))
            p32, p16 = fp32.predictor(h32[-1], codes).float(), bf16.predictor(h16[-1], codes).float()
            r, row, gap, tol, gap16 = near_tie_ratio(p32, p16, chosen[1:])
            worst = max(worst, (r, f, row + 1, gap, tol, gap16))
            decisions += GROUPS
            e32 = torch.cat([e32, fp32.frame_input(codes, t32[min(f, len(trailing))])[None]])
            e16 = torch.cat([e16, bf16.frame_input(codes, t16[min(f, len(trailing))])[None]])
        theirs = bf16.greedy(rows, frames, trailing)
    for a, b in zip(ours, theirs):
        if a != b:
            break
        exact += 1
    name = "greedy-streaming" if streaming else "greedy"
    ratio, frame, group, gap, tol, gap16 = worst
    report.check(name + ("-fused" if fused else ""), len(ours) > 0 and ratio <= 1.0,
                 f"{len(ours)} frames, {decisions} choices; each the float32 argmax given our earlier codes or within "
                 f"the near-tie tolerance (max(0.05, 3x the bf16 reference's rms error, 2 bf16 ulps)): "
                 f"worst {ratio:.2f} of it (frame {frame}, codebook {group}: our id {gap:.4f} below the float32 best, tolerance "
                 f"{tol:.4f}; the bf16 reference's own scores put it {gap16:.4f} below); the bf16 reference's own "
                 f"greedy run agrees on its first {exact} of {len(theirs)} frames")
    return ours


def check_program_modes(report, program, folder, ids, frames, greedy):
    eager = program.codes(folder, ids, frames, ["--greedy", "--eager"])
    report.check("graphs-vs-eager", eager == greedy, f"{len(greedy)} frames from graphs, {len(eager)} eagerly")
    plain = program.codes(folder, ids, frames, ["--greedy", "--no-pdl"])
    report.check("graphs-no-pdl-vs-eager", eager == plain,
                 f"{len(plain)} frames from graphs without PDL, {len(eager)} eagerly")
    a = program.codes(folder, ids, frames, ["--seed", "7"])
    b = program.codes(folder, ids, frames, ["--seed", "7"])
    c = program.codes(folder, ids, frames, ["--seed", "8"])
    report.check("sampling", a == b and a != c and len(a) > 0,
                 f"seed 7: {len(a)} frames, again {'the same' if a == b else 'different'}; seed 8 "
                 f"{'differs' if a != c else 'the same'}")
    fused = program.codes(folder, ids, frames, ["--greedy", "--fused-steps"])
    fused_eager = program.codes(folder, ids, frames, ["--greedy", "--fused-steps", "--eager"])
    report.check("fused-graphs-vs-eager", fused == fused_eager and len(fused) > 0,
                 f"{len(fused)} frames with fused steps from graphs, {len(fused_eager)} eagerly")


def check_synthesize(report, program, build, folder, work, ids):
    """synthesize against the codec decoder's own program on the same codes: a speech_tokenizer folder
    with random weights (check_tts_codec.py's writer, 1 transformer layer) beside the talker's
    checkpoint; `synthesize --greedy`'s WAV must hold the 16-bit samples of `cute-cpp-tts-codec decode`
    of `codes --greedy`'s codes (the [frames][groups] -> [1, groups, frames] hand-over)."""
    import wave
    import check_tts_codec as codec
    decoder = Path(build) / "models/qwen3_tts/cute-cpp-tts-codec"
    if not decoder.exists():
        report.check("synthesize", False, f"{decoder} is missing (build cute-cpp-tts-codec)")
        return
    cfg = dict(codec.DECODER_CONFIG, num_hidden_layers=1)
    state = {k: v.to(ref.DEVICE) for k, v in codec.random_state(cfg, torch.Generator().manual_seed(11)).items()}
    codec.scaled_output(state, cfg, np.random.default_rng(3).integers(0, cfg["codebook_size"], size=(1, GROUPS, 20)),
                        device=ref.DEVICE)
    codec.write_checkpoint(folder / "speech_tokenizer", cfg, state)
    frames = 8
    codes = program.codes(folder, ids, frames, ["--greedy"])
    out = work / "speech.wav"
    program.run(["synthesize", "--model", str(folder), "--ids", ",".join(map(str, ids)), "--speaker", SPEAKER,
                 "--greedy", "--max-new-tokens", str(frames + 1), "--out", str(out)])
    packed = np.array(codes, dtype=np.int32).T.reshape(1, GROUPS, len(codes))  # [batch, groups, frames]
    packed.tofile(work / "codes.bin")
    subprocess.run([str(decoder), "decode", "--model", str(folder / "speech_tokenizer"), "--codes",
                    str(work / "codes.bin"), "--batch", "1", "--frames", str(len(codes)), "--out",
                    str(work / "wave.bin")], check=True, capture_output=True, timeout=TIMEOUT_S)
    wave_ref = np.fromfile(work / "wave.bin", dtype=np.float32)
    expected = (np.sign(wave_ref) * np.floor(np.abs(np.clip(wave_ref, -1, 1)) * 32767 + 0.5)).astype(np.int64)
    with wave.open(str(out)) as w:
        header = (w.getnchannels(), w.getsampwidth(), w.getframerate())
        got = np.frombuffer(w.readframes(w.getnframes()), dtype="<i2").astype(np.int64)
    same_length = got.size == expected.size == len(codes) * 1920
    worst = int(np.abs(got - expected).max()) if same_length and got.size else -1
    report.check("synthesize", header == (1, 2, 24000) and same_length and 0 <= worst <= 1,
                 f"{len(codes)} frames, {got.size} samples (expected {len(codes) * 1920}), mono 16-bit "
                 f"{header[2]} Hz; largest difference from cute-cpp-tts-codec's decode of the same codes {worst} LSB")


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
        model.generate(input_ids=[torch.tensor([ids], device=ref.DEVICE)], languages=[language], speakers=[speaker or None],
                       instruct_ids=[torch.tensor([instruct], device=ref.DEVICE) if instruct else None],
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
        inv = 1.0 / (1e6 ** (torch.arange(0, d, 2, device=ref.DEVICE).float() / d))
        ids = torch.tensor([5, 1234, 77777], device=ref.DEVICE).float()
        emb = torch.cat([ids[:, None] * inv] * 2, -1)[:, None, None, :]  # [3, batch, tokens, d]
        q = torch.zeros(1, 1, 1, d, device=ref.DEVICE)
        q[..., : d // 2] = 1  # q_embed's first half is then the cos each pair is turned by
        turned, _ = apply_multimodal_rotary_pos_emb(q, q, emb.cos(), emb.sin(), sections, interleaved)
        comp = mrope_pairs(sections, interleaved, d // 2)
        ours = emb.cos()[comp, 0, 0, torch.arange(d // 2, device=ref.DEVICE)]
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
            theirs, _ = official.model.generate(input_ids=[torch.tensor([ids], device=ref.DEVICE)], languages=["auto"],
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
    ref.DEVICE = opts.device
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
    report.guarded("greedy-fused", check_greedy, report, program, folder, refs, ids, opts.frames, False, True)
    if greedy is not None:
        report.guarded("program-modes", check_program_modes, report, program, folder, ids, opts.frames, greedy)
    report.guarded("synthesize", check_synthesize, report, program, opts.build, folder, work, ids)
    print(f"{report.passed} passed, {report.failed} failed ({time.time() - start:.0f} s)")
    if opts.json:
        # gpu-check's record schema (check_qwen3.py's): the minimum logits cosine against float32.
        value = worst if worst is not None else 0.0
        Path(opts.json).write_text(json.dumps([{
            "kernel": "qwen3_tts logits vs fp32", "shape": f"Qwen3-TTS-1.7B ({opts.talker_layers}/28 talker layers)",
            "dtype": "bf16", "ours": value, "reference": "float32 reference", "reference_value": 1.0,
            "unit": "min cosine", "ratio": value, "microseconds": 0.0}], indent=1) + "\n")
    return 0 if report.failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
