#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Tensor parallelism of cute-cpp-qwen3 on one GPU (issue 49; tensor_parallel.md): the per-rank model
at N = 2 and 4 ranks, emulated on the one device (--tensor-parallel-emulate: every rank's model on the
GPU, the collectives done by the host), against the one-device model (N = 1), and NCCL with a
communicator of one rank (--tensor-parallel 1 --tensor-parallel-nccl, the decode graphs kept) against
the plain run. Checkpoints: the tiny dense one (tiny-tied) and the tiny MoE one (tiny-moe: 64 experts,
a dense layer among the sparse ones), as check_qwen3.py builds them, and Qwen3-0.6B's published
config with random weights (--random-weights: each rank fills its part of the same values).

Checks (each per checkpoint and N):
  tp-logits      logits of a 2-prompt batch: every row's cosine against N = 1 >= TP_COSINE (the ranks'
                 partial sums are rounded to bf16 before the all-reduce adds them: bf16 rounding, not
                 exact), and the same argmax except where N = 1's top two are within NEAR_TIE_ULPS bf16
                 ulps (a near-tie).
  tp-greedy      greedy continuations of 2 prompts identical to N = 1's up to the first near-tie (judged
                 on N = 1's logits of the common prefix), after which they may diverge.
  tp-nccl-n1     NCCL with one rank: logits bitwise equal to the plain run, greedy ids identical (the
                 decode steps through the captured graphs, the all-reduces in them).
  tp-emulated-n1 the per-rank path with one emulated rank: logits bitwise equal to the plain run.

    check_qwen3_tp.py --build BUILD [--work DIR] [--json FILE] [--configs-dir DIR] [--no-nccl]

Needs numpy and torch (models/common's check helpers), transformers for the tiny checkpoints (check_qwen3.py's
builder), and NCCL from CUTE_CPP_NCCL or the loader's path (scripts/gpu-check sets it from torch's nvidia-nccl).
"""
import argparse
import json
import math
import os
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "common"))

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

try:
    import numpy as np
except ImportError as e:
    print(f"FAIL: {e}: check_qwen3_tp.py needs numpy and torch", file=sys.stderr)
    sys.exit(1)

from decoder_checks import Report, finish, random_ids, rng_for, row_cosines  # noqa: E402
from decoder_program import Program, ProgramError, built_program  # noqa: E402

TP_COSINE = 0.9995     # each row of N ranks' logits against one device's
NEAR_TIE_ULPS = 4      # top-two logits this many bf16 ulps apart (of the larger) may swap
RANKS = (2, 4)
GREEDY_TOKENS = 24
SEED = 7               # --random-weights for the published config


def bf16_ulp(x):
    """The spacing of bf16 values at |x| (8 significant bits)."""
    x = abs(float(x))
    return 2.0 ** (math.floor(math.log2(x)) - 7) if x > 0 else 2.0 ** -133


def near_tie(row, a, b):
    return abs(float(row[a]) - float(row[b])) <= NEAR_TIE_ULPS * bf16_ulp(max(abs(row[a]), abs(row[b])))


class Case:
    """One checkpoint: its folder, vocabulary, and the program's extra arguments (random weights)."""

    def __init__(self, name, folder, vocab, extra=()):
        self.name, self.folder, self.vocab, self.extra = name, folder, vocab, list(extra)


def logits(program, case, prompts, tp=()):
    """`logits` with the case's and `tp`'s arguments: float32 [tokens, vocab]."""
    program.runs += 1
    out = program.work / f"tp-logits-{program.runs}.f32"
    args = ["logits", "--model", case.folder, "--ids", ";".join(",".join(map(str, p)) for p in prompts),
            "--out", out, *case.extra, *tp]
    program.run_ok(args)
    total = sum(map(len, prompts))
    data = np.fromfile(out, dtype="<f4")
    if data.size != total * case.vocab:
        raise ProgramError(f"{out.name}: {data.size} values, expected {total} x {case.vocab}")
    return data.reshape(total, case.vocab)


def generate(program, case, prompts, tp=()):
    return program.generate(case.folder, prompts, GREEDY_TOKENS, case.vocab, extra=[*case.extra, *tp])


def prompts_of(case, index):
    rng = rng_for(index, 11)
    return [random_ids(rng, case.vocab, 37), random_ids(rng, case.vocab, 11)]


def ranks_args(n, gpus):
    """--tensor-parallel N: emulated on one GPU, or (gpus) N GPUs over NCCL (check_qwen3_tp_gpus.py)."""
    return ["--tensor-parallel", n] + ([] if gpus else ["--tensor-parallel-emulate"])


def ranks_label(n, gpus):
    return (f"{n} GPUs over NCCL" if gpus else f"{n} emulated ranks"), ("tp-gpus" if gpus else "tp")


def check_logits(report, program, case, index, n, base, gpus=False):
    prompts = prompts_of(case, index)
    ours = logits(program, case, prompts, ranks_args(n, gpus))
    what, prefix = ranks_label(n, gpus)
    cos = row_cosines(base, ours)
    diff = float(np.abs(base.astype(np.float64) - ours).max())
    swaps = [r for r in range(base.shape[0]) if int(np.argmax(base[r])) != int(np.argmax(ours[r]))]
    bad = [r for r in swaps if not near_tie(base[r], int(np.argmax(base[r])), int(np.argmax(ours[r])))]
    ok = bool(np.isfinite(ours).all()) and float(cos.min()) >= TP_COSINE and not bad
    report.check(f"{prefix}-logits.{case.name}.n{n}", ok,
                 f"{what} against one device, {base.shape[0]} rows: min cosine {float(cos.min()):.7f} "
                 f"(needs >= {TP_COSINE}), max |diff| {diff:.4g}; argmax differs in {len(swaps)} rows, "
                 f"{len(bad)} of them not near-ties{f' (rows {bad[:5]})' if bad else ''}")
    kernel = "qwen3 tensor-parallel logits vs one device" + (" (NCCL, N GPUs)" if gpus else "")
    report.records.append({"kernel": kernel, "shape": f"{case.name} N={n}",
                           "dtype": "bf16", "ours": float(cos.min()), "reference": "N = 1", "reference_value": 1.0,
                           "unit": "min cosine", "ratio": float(cos.min()), "microseconds": 0.0})


def check_greedy(report, program, case, index, n, base_ids, gpus=False):
    prompts = prompts_of(case, index)
    ours = generate(program, case, prompts, ranks_args(n, gpus))
    prefix = ranks_label(n, gpus)[1]
    parts, ok = [], True
    for p, (a, b) in enumerate(zip(base_ids, ours)):
        step = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), None)
        if step is None:
            parts.append(f"prompt {p}: identical")
            continue
        row = logits(program, case, [prompts[p] + a[:step]])[-1]  # N = 1's logits where they part
        tie = near_tie(row, a[step], b[step])
        ok = ok and tie
        parts.append(f"prompt {p}: step {step}: N = 1 {a[step]}, N = {n} {b[step]}, logits {row[a[step]]:.4f} "
                     f"and {row[b[step]]:.4f} ({'near-tie' if tie else 'NOT a near-tie'})")
    report.check(f"{prefix}-greedy.{case.name}.n{n}", ok, f"{GREEDY_TOKENS} greedy tokens: " + "; ".join(parts))


def check_one_rank(report, program, case, index, base, base_ids, nccl):
    prompts = prompts_of(case, index)
    emulated = logits(program, case, prompts, ["--tensor-parallel", 1, "--tensor-parallel-emulate"])
    report.check(f"tp-emulated-n1.{case.name}", np.array_equal(emulated, base),
                 f"one emulated rank against the plain run: max |diff| "
                 f"{float(np.abs(emulated.astype(np.float64) - base).max()):.4g} (needs bitwise equal)")
    if not nccl:
        return
    ours = logits(program, case, prompts, ["--tensor-parallel", 1, "--tensor-parallel-nccl"])
    ids = generate(program, case, prompts, ["--tensor-parallel", 1, "--tensor-parallel-nccl"])
    ok = np.array_equal(ours, base) and ids == base_ids
    report.check(f"tp-nccl-n1.{case.name}", ok,
                 f"NCCL, one rank, against the plain run: logits max |diff| "
                 f"{float(np.abs(ours.astype(np.float64) - base).max()):.4g} (needs bitwise equal); greedy ids "
                 f"{'identical' if ids == base_ids else 'DIFFER'} (decode graphs with the all-reduces in them)")


def check_case(report, program, case, index, nccl):
    prompts = prompts_of(case, index)
    base = logits(program, case, prompts)
    base_ids = generate(program, case, prompts)
    report.guarded(f"tp-one-rank.{case.name}", check_one_rank, program, case, index, base, base_ids, nccl)
    for n in RANKS:
        report.guarded(f"tp-logits.{case.name}.n{n}", check_logits, program, case, index, n, base)
        report.guarded(f"tp-greedy.{case.name}.n{n}", check_greedy, program, case, index, n, base_ids)


def cases(work, configs_dir):
    """The tiny dense and MoE checkpoints (check_qwen3.py's), and Qwen3-0.6B's config with random weights."""
    from qwen3_checkpoints import SPECS, build_checkpoint, configs_folder  # torch and transformers
    out = []
    for spec in SPECS:
        if spec.name in ("tiny-tied", "tiny-moe"):
            folder = work / "checkpoints" / spec.name
            build_checkpoint(spec, folder)
            out.append(Case(spec.name, folder, spec.vocab))
    config = configs_folder(configs_dir, ["0.6b"]) / "qwen3-0.6b.json"
    folder = work / "checkpoints" / "qwen3-0.6b-random"
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copy(config, folder / "config.json")
    vocab = json.loads(config.read_text())["vocab_size"]
    out.append(Case("Qwen3-0.6B-random", folder, vocab, ["--random-weights", SEED]))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", required=True, help="the CMake build folder holding models/qwen3/cute-cpp-qwen3")
    ap.add_argument("--work", help="folder for checkpoints and outputs (default: a temporary one)")
    ap.add_argument("--json", help="write the records (the repository's benchmark record format) here")
    ap.add_argument("--configs-dir", help="the folder of qwen3-0.6b.json (default: <repo>/shared/models)")
    ap.add_argument("--no-nccl", action="store_true", help="skip the NCCL checks (no libnccl on this machine)")
    opts = ap.parse_args()
    binary = built_program(opts.build, "qwen3", "cute-cpp-qwen3")
    if binary is None:
        return 1
    temporary = opts.work is None
    work = Path(tempfile.mkdtemp(prefix="check_qwen3_tp-") if temporary else opts.work).resolve()
    work.mkdir(parents=True, exist_ok=True)
    report = Report()
    program = Program(binary.resolve(), work)
    try:
        found = cases(work, opts.configs_dir)
    except Exception as e:  # noqa: BLE001 -- reported as the checks' failure
        report.check("tp-checkpoints", False, f"{type(e).__name__}: {e}")
        found = []
    for index, case in enumerate(found):
        check_case(report, program, case, index, not opts.no_nccl)
    return finish(report, opts.json, work, temporary)


if __name__ == "__main__":
    sys.exit(main())
