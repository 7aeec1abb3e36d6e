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
  greedy-fused.<ckpt>      the greedy check with each decode step one launch (--fused-steps,
                           models/qwen3/fused_step.hpp: dense and MoE layers); fused-graphs-vs-eager: its
                           ids from graphs and eagerly are the same.
  greedy-folded-norms.<ckpt>  (not the Qwen3-<size> ones) the greedy check with the RMSNorms before the
                           QKV and gate-up projections inside them (--fused-dense-norm; off by default).
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
import math
import os
import re
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "common"))

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

try:
    import numpy as np
    import torch
    import transformers
except ImportError as e:
    print(f"FAIL: {e}: check_qwen3.py needs numpy, torch (with CUDA), transformers and safetensors", file=sys.stderr)
    sys.exit(1)

# The model-independent checks and the program runner (models/common), the checkpoints (beside this file).
from decoder_checks import (COSINE_BATCHED, RMS_VS_BF16, Report, check_batched_generate,  # noqa: E402
                            check_greedy, check_sampling, cosine_rule, error_figures, finish, free_cuda, random_ids,
                            greedy_prompt, rng_for, row_cosines, where_in_batch)
from decoder_program import Program, ProgramError, built_program, first_line, ids_argument  # noqa: E402
from qwen3_checkpoints import (FAMILY, LOGIT_STD, SPECS, Reference, build_checkpoint, configs_folder,  # noqa: E402
                               family_sizes, family_spec, make_bad_checkpoints)


def logits_prompts(spec):
    rng = rng_for(spec.index, 2)
    return [random_ids(rng, spec.vocab, n) for n in spec.logits_lengths]


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


def check_fused_steps(report, program, spec, folder, ref):
    """greedy-fused.<ckpt>: the greedy check with each decode step one launch (--fused-steps, where the
    fused step takes the model; else the same layered steps); fused-graphs-vs-eager.<ckpt>: those ids
    from the decode graphs and eagerly are the same."""
    ours = check_greedy(report, program, spec, folder, ref, extra=("--fused-steps",), label="greedy-fused")
    eager = program.generate(folder, [greedy_prompt(spec)], spec.greedy_tokens, spec.vocab, extra=("--fused-steps", "--eager"))[0]
    report.check(f"fused-graphs-vs-eager.{spec.name}", eager == ours,
                 "fused decode steps through CUDA graphs and eagerly give " +
                 ("identical ids" if eager == ours else f"different ids: graphs {ours}, eager {eager}"))


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
    report.guarded(f"greedy-fused.{spec.name}", check_fused_steps, program, spec, folder, ref)
    if not spec.family:  # the RMSNorms folded into the QKV and gate-up projections (off by default)
        report.guarded(f"greedy-folded-norms.{spec.name}", check_greedy, program, spec, folder, ref,
                       extra=("--fused-dense-norm",), label="greedy-folded-norms")
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


def main():
    opts = parse_options()
    binary = built_program(opts.build, "qwen3", "cute-cpp-qwen3")
    if binary is None:
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
