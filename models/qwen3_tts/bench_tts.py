#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Issue 47's end-to-end benchmark of Qwen3-TTS-12Hz-1.7B-CustomVoice (text to 24 kHz speech): cute-cpp-tts bench
with random weights filled on the device from the configs alone (the figures do not depend on the values; the
audio means nothing).

    bench_tts.py --build DIR [--work DIR] [--json FILE] [--frames 125] [--batch 8] [--runs 5] [--tokenizer DIR]

The folder it writes holds no weights: config.json as check_tts.py builds it at full depth (28 talker layers,
tts_reference.full_config: the 1.7B widths, speaker serena) and speech_tokenizer/config.json as check_tts_codec.py
builds it (the published decoder widths, 8 transformer layers). The text is a 20-word English sentence; the lent
machine has no Qwen tokenizer, so unless --tokenizer names a folder with tokenizer.json (or vocab.json and
merges.txt) the program gets --ids: the role header, one made-up text id per word and one for the full stop (21,
about what Qwen's tokenizer gives this sentence), and the closing turn (the program prints the prompt's rows:
speaker serena, language english). eos is suppressed, so every synthesis has --frames frames (125: 10 s of speech); sampling is the
reference's default (top-k 50, temperature 0.9, both stages).

Records (the program writes them; cute-cpp-tts bench --help and tts_bench.cpp say exactly what each includes):
  tts first packet          ms from the prompt rows on the host to the first 80 ms of waveform in host memory
                            (embeddings, talker prefill, frame 0's 16 codes, a stream window of 1 frame with 25 of
                            left context decoded and copied back), beside the goal of 50 ms;
  tts real-time factor      (generation + decode of 125 frames) / 10 s, beside the goal of 0.05;
  tts generation, tts decode  the two parts of it (frames/s beside 12.5 real time; ms beside the audio's length);
  tts synthesis throughput  8 syntheses back to back ("8 sequential": the model holds one sequence), audio seconds
                            per wall second, beside 1 / the real-time factor at batch 1;
  tts generation pdl        generation alone with the frame graph's programmatic kernel edges, beside without;
  tts generation fused      generation alone with each talker and code-predictor step one launch (--fused-steps,
                            models/qwen3/fused_step.hpp), beside the layered steps, alternating in one process;
  tts frame phase           a frame phase by phase (--breakdown: events between the phases, so without PDL;
                            each phase summed over the frame: the talker's code 0, the code predictor's input,
                            step and head + draw, the frame's end, the talker's step and head) beside the time
                            its weights take at the copy bandwidth measured here; `tts frame phase, fused
                            steps` the same frame with --fused-steps (each step one launch);
  tts frame marginal phase  what each of those phases costs the frame as it runs (--marginal: the frame's
                            graph, PDL and all, replayed whole and with the phase's launches disabled; the
                            median difference), beside the same floor.
"""
import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

TEXT = "The quick brown fox jumps over the lazy dog while the morning sun rises slowly above the quiet green hills."
RANDOM_WEIGHTS_SEED = 47
HEADER, CLOSING = [151644, 77091, 198], [151645, 198, 151644, 77091, 198]  # <|im_start|>assistant\n ... <|im_end|>\n


def configs():
    """(config.json, speech_tokenizer/config.json) as check_tts.py and check_tts_codec.py build them."""
    # NOTE: both modules import torch (the lent machine has it); the dictionaries are theirs, so the checks and
    # the benchmark run the same configs.
    from tts_reference import SPEAKER, full_config
    from check_tts_codec import DECODER_CONFIG, TOKENIZER_CONFIG
    return full_config(28), dict(TOKENIZER_CONFIG, decoder_config=DECODER_CONFIG), SPEAKER


def text_arguments(folder, tokenizer):
    """--text with the tokenizer's files copied in, else --ids of made-up ids, one per word and the full stop."""
    if tokenizer:
        names = [n for n in ("tokenizer.json", "vocab.json", "merges.txt", "tokenizer_config.json")
                 if (Path(tokenizer) / n).exists()]
        for name in names:
            shutil.copy(Path(tokenizer) / name, folder / name)
        return ["--text", TEXT], f"tokenized with {tokenizer}"
    count = len(TEXT.split()) + 1
    body = [1000 + (7919 * i) % 150000 for i in range(count)]
    ids = HEADER + body + CLOSING
    return ["--ids", ",".join(map(str, ids))], f"{count} made-up text ids (no tokenizer)"


def phase_floors(records):
    """Each `tts frame phase` record's reference: its weight bytes (the program's `bytes`) at the copy
    bandwidth measured here (bench_qwen3.copy_bandwidth); the ratio is the fraction of that floor."""
    phases = [r for r in records if "bytes" in r]
    if not phases:
        return
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "qwen3"))
    from bench_qwen3 import copy_bandwidth
    bandwidth = copy_bandwidth()
    print(f"device copy bandwidth: {bandwidth / 1e12:.2f} TB/s", flush=True)
    for r in phases:
        floor_us = r.pop("bytes") / bandwidth * 1e6
        r["reference_value"], r["ratio"] = floor_us, floor_us / r["ours"] if r["ours"] > 0 else 0.0
        print(f"{r['kernel']} ({r['shape']}): {r['ours']:.1f} us, its weights take {floor_us:.1f} us", flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", required=True)
    ap.add_argument("--work")
    ap.add_argument("--json")
    ap.add_argument("--frames", type=int, default=125)
    ap.add_argument("--batch", type=int, default=8)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--tokenizer", help="a folder with Qwen's tokenizer files: the sentence is tokenized")
    opts = ap.parse_args()
    binary = Path(opts.build) / "models/qwen3_tts/cute-cpp-tts"
    if not binary.is_file():
        print(f"FAIL: {binary} is missing (build the target cute-cpp-tts)", file=sys.stderr)
        return 1
    config, tokenizer_config, speaker = configs()
    work = Path(opts.work or tempfile.mkdtemp(prefix="bench_tts-"))
    folder = work / "qwen3-tts-1.7b-config-only"
    (folder / "speech_tokenizer").mkdir(parents=True, exist_ok=True)
    (folder / "config.json").write_text(json.dumps(config, indent=1) + "\n")
    (folder / "speech_tokenizer/config.json").write_text(json.dumps(tokenizer_config, indent=1) + "\n")
    text, how = text_arguments(folder, opts.tokenizer)
    print(f"text: {TEXT!r} ({len(TEXT.split())} words), {how}", flush=True)
    out = work / "ours.json"
    p = subprocess.run([str(binary), "bench", "--model", str(folder), "--random-weights", str(RANDOM_WEIGHTS_SEED),
                        *text, "--speaker", speaker, "--language", "english", "--frames", str(opts.frames),
                        "--batch", str(opts.batch), "--runs", str(opts.runs), "--breakdown", "--marginal", "--json",
                        str(out)],
                       capture_output=True, text=True, timeout=590)
    print(p.stdout, p.stderr, sep="", flush=True)
    if p.returncode != 0 or "no CUDA graph" in p.stderr:
        print("FAIL: cute-cpp-tts bench --random-weights", flush=True)
        return 1
    records = json.loads(out.read_text())
    phase_floors(records)
    for r in records:
        r["shape"] = f"Qwen3-TTS-1.7B, {r['shape']}"
    if opts.json:
        Path(opts.json).write_text(json.dumps(records, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
