#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Tensor parallelism of cute-cpp-qwen3 on several GPUs (issue 49; tensor_parallel.md): `--tensor-parallel N`
over NCCL, rank r on GPU r, for each N of 2, 4 and 8 that the visible GPUs allow (torch's count, else
nvidia-smi's), against the one-device run (N = 1) and against transformers. With fewer than 2 GPUs
nothing runs: the check tp-gpus is recorded as NOT RUN and the script exits 3 (check_report.NOT_RUN_EXIT),
which scripts/gpu-check lists as "not run", never as a pass.

Checkpoints (--cases): `toys` (tiny-tied and tiny-moe, check_qwen3.py's, at N = 2 and 4: their 4 query
heads refuse 8), and the published configs `8b`, `32b`, `30b-a3b` at their widths and 4 layers with
random weights, built by transformers as check_qwen3.py's large family builds them (qwen3_checkpoints),
deleted after their checks if these pass. An N that does not split a checkpoint (tp_plan.splits) is named
and skipped; the program's tp.* rules are checked by the bad-n checks.

Checks, per checkpoint and N (names end in .n<N>):
  tp-gpus-logits      logits of a 2-prompt batch against N = 1: every row's cosine >= check_qwen3_tp.TP_COSINE,
                      argmax equal except near-ties (check_qwen3_tp.py's rule: bf16 rounding of the partial sums)
  tp-gpus-greedy      greedy continuations identical to N = 1's up to the first near-tie
  logits              check_qwen3.py's logits check at N (against transformers fp32, beside its bf16)
  greedy              decoder_checks' greedy check at N (against transformers' generate, fp32 deciding ties)
  batched-generate    decoder_checks' batched check at N, with graphs-vs-eager and graphs-no-pdl-vs-eager:
                      the decode graphs with the all-reduces in them against eager launches
And with the toys: tp-bad-n.q-heads (tiny-tied at N = 3: exit 2 with tp.q-heads) and tp-bad-n.gpus (Qwen3-8B's
config at the first power of two past the GPUs: exit 2 with tp.gpus, before any weights load).
Not checked at N: routing-stats (a rank prints its own experts' counts only).

    check_qwen3_tp_gpus.py --build BUILD [--work DIR] [--json FILE] [--cases toys,8b,32b,30b-a3b]
                           [--gpus N] [--configs-dir DIR]

Needs torch with CUDA, transformers, safetensors and numpy (check_qwen3.py's references), and NCCL from
CUTE_CPP_NCCL or the loader's path (scripts/gpu-check sets it, and NCCL_NVLS_ENABLE=0).
"""
import argparse
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "common"))

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

import check_qwen3  # noqa: E402  (imports torch and transformers, and says so when they are missing)
import check_qwen3_tp as tp  # noqa: E402
import tp_plan  # noqa: E402
from decoder_checks import Report, check_batched_generate, check_greedy, finish, free_cuda  # noqa: E402
from decoder_program import Program, TIMEOUT_S, built_program  # noqa: E402
from qwen3_checkpoints import SPECS, Reference, build_checkpoint, configs_folder, family_spec  # noqa: E402

CASES = ("toys", "8b", "32b", "30b-a3b")
TOYS = ("tiny-tied", "tiny-moe")
BAD_N = 3  # does not divide tiny-tied's 4 query heads


class RankedProgram(Program):
    """The program with --tensor-parallel N added to every command, so that check_qwen3.py's and
    decoder_checks' checks run unchanged at N GPUs (each at N: --eager and --no-pdl too)."""

    def __init__(self, path, work, ranks):
        super().__init__(path, work)
        self.ranks = ranks

    def run(self, args, timeout=TIMEOUT_S):
        return super().run([*args, "--tensor-parallel", self.ranks], timeout)


class _RanksRecords(list):
    def __init__(self, target, n):
        super().__init__()
        self.target, self.n = target, n

    def append(self, record):
        self.target.append(dict(record, kernel=f"tensor parallel {record['kernel']}",
                                shape=f"{record['shape']} N={self.n}"))


class RanksReport:
    """A Report seen by checks written for one device, run at N GPUs: each check's name gets `.n<N>`,
    each record's kernel a `tensor parallel ` prefix and its shape ` N=<N>`."""

    def __init__(self, report, n):
        self.report, self.n, self.records = report, n, _RanksRecords(report.records, n)

    def check(self, name, ok, figures):
        self.report.check(f"{name}.n{self.n}", ok, f"{self.n} GPUs: {figures}")

    def guarded(self, name, fn, *args):
        try:
            fn(self, *args)
        except Exception as e:  # noqa: BLE001 -- reported as that check's failure, as Report.guarded does
            self.check(name, False, f"{type(e).__name__}: {e}")


def check_at_ranks(report, binary, work, spec, folder, ref, ranks):
    """One checkpoint's checks at each N of `ranks` that splits it."""
    case = tp.Case(spec.name, folder, spec.vocab)
    plain = Program(binary, work)
    prompts = tp.prompts_of(case, spec.index)
    base = tp.logits(plain, case, prompts)
    base_ids = tp.generate(plain, case, prompts)
    for n in ranks:
        if not tp_plan.splits(spec.config_fields(), n):
            print(f"{spec.name}: N = {n} does not split it (heads {spec.heads}, kv {spec.kv_heads}); not checked",
                  flush=True)
            continue
        report.guarded(f"tp-gpus-logits.{spec.name}.n{n}", tp.check_logits, plain, case, spec.index, n, base, True)
        report.guarded(f"tp-gpus-greedy.{spec.name}.n{n}", tp.check_greedy, plain, case, spec.index, n, base_ids,
                       True)
        ranked = RankedProgram(binary, work / f"n{n}", n)
        ranked.work.mkdir(parents=True, exist_ok=True)
        at_n = RanksReport(report, n)
        at_n.guarded(f"logits.{spec.name}", check_qwen3.check_logits, ranked, spec, folder, ref)
        at_n.guarded(f"greedy.{spec.name}", check_greedy, ranked, spec, folder, ref)
        at_n.guarded(f"batched-generate.{spec.name}", check_batched_generate, ranked, spec, folder, ref)


def check_checkpoint(report, binary, work, spec, ranks):
    """Builds one checkpoint and transformers' models of it, runs its checks at each N, frees the models;
    a published-width checkpoint whose checks pass is deleted (up to 7 GB). Returns its folder or None."""
    folder = work / "checkpoints" / spec.name
    failed_before, start = len(report.failed), time.monotonic()
    try:
        build_checkpoint(spec, folder)
        ref = Reference(spec, folder)
    except Exception as e:  # noqa: BLE001 -- this checkpoint's failure; the others still run
        free_cuda()
        report.check(f"checkpoint.{spec.name}", False, f"{type(e).__name__}: {e}")
        return None
    try:
        report.guarded(f"tp-gpus.{spec.name}", check_at_ranks, binary, work, spec, folder, ref, ranks)
    finally:
        ref.free()
    print(f"time {spec.label}: {time.monotonic() - start:.0f} s at N = {ranks}", flush=True)
    if spec.family and len(report.failed) == failed_before:
        shutil.rmtree(folder, ignore_errors=True)
    return folder


def check_bad_ranks(report, program, work, tiny, configs_dir, gpus):
    """An N that does not divide the query heads, and an N past the GPUs present: exit 2 with the rule."""
    eight_b = work / "qwen3-8b-config-only"
    eight_b.mkdir(parents=True, exist_ok=True)
    shutil.copy(configs_folder(configs_dir, ["8b"]) / "qwen3-8b.json", eight_b / "config.json")
    too_many = tp_plan.too_many_ranks(gpus)
    for name, folder, n, extra, rule in (("q-heads", tiny, BAD_N, [], "tp.q-heads"),
                                         ("gpus", eight_b, too_many, ["--random-weights", 7], "tp.gpus")):
        done = program.run(["generate", "--model", folder, "--ids", "1,2,3", "--max-new-tokens", 1,
                            "--tensor-parallel", n, *extra], timeout=120)
        first = next((line.strip() for line in done.stderr.splitlines() if line.strip()), "(empty)")
        ok = done.returncode == 2 and first.startswith(f"cute-cpp [{rule}]: ")
        report.check(f"tp-bad-n.{name}", ok, f"--tensor-parallel {n} on {folder.name} with {gpus} GPUs: exit "
                     f"{done.returncode} (expected 2), first stderr line {first[:200]!r} (expected [{rule}])")


def parse_options():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", required=True, help="the CMake build folder holding models/qwen3/cute-cpp-qwen3")
    ap.add_argument("--work", help="folder for checkpoints and outputs (default: a temporary one)")
    ap.add_argument("--json", help="write the records (the repository's benchmark record format) here")
    ap.add_argument("--cases", default=",".join(CASES), help=f"a comma list of {', '.join(CASES)} (default: all)")
    ap.add_argument("--gpus", type=int, help="GPUs to use (default: the visible ones)")
    ap.add_argument("--configs-dir", help="the folder of qwen3-<size>.json (default: <repo>/shared/models)")
    opts = ap.parse_args()
    opts.cases = [c for c in opts.cases.split(",") if c]
    unknown = [c for c in opts.cases if c not in CASES]
    if unknown or not opts.cases:
        ap.error(f"--cases: {unknown or 'none'}: expected a comma list of {', '.join(CASES)}")
    return opts


def main():
    opts = parse_options()
    binary = built_program(opts.build, "qwen3", "cute-cpp-qwen3")
    if binary is None:
        return 1
    gpus = opts.gpus if opts.gpus is not None else tp_plan.visible_gpus()
    ranks = tp_plan.ranks_within(gpus)
    temporary = opts.work is None
    work = Path(tempfile.mkdtemp(prefix="check_qwen3_tp_gpus-") if temporary else opts.work).resolve()
    work.mkdir(parents=True, exist_ok=True)
    report = Report()
    if not ranks:
        report.skip("tp-gpus", f"{gpus} GPU(s) visible: --tensor-parallel {'/'.join(map(str, tp_plan.RANKS_WANTED))} "
                    "over NCCL needs at least 2; run on a several-GPU machine")
        return finish(report, opts.json, work, temporary)
    beyond = [n for n in tp_plan.RANKS_WANTED if n > gpus]
    print(f"{gpus} GPUs visible: N = {', '.join(map(str, ranks))}"
          + (f"; N = {', '.join(map(str, beyond))} need more GPUs and are not run" if beyond else "")
          + f"; CUTE_CPP_NCCL={os.environ.get('CUTE_CPP_NCCL', '(unset)')}, "
          f"NCCL_NVLS_ENABLE={os.environ.get('NCCL_NVLS_ENABLE', '(unset)')}", flush=True)
    check_qwen3.torch.set_float32_matmul_precision("highest")  # the fp32 reference without TF32
    check_qwen3.transformers.logging.set_verbosity_error()
    program = Program(binary.resolve(), work)
    if "toys" in opts.cases:
        folders = {}
        for spec in (s for s in SPECS if s.name in TOYS):
            folders[spec.name] = check_checkpoint(report, binary.resolve(), work, spec, ranks)
        if folders.get("tiny-tied") is None:
            report.check("tp-bad-n", False, "needs the tiny-tied checkpoint")
        else:
            report.guarded("tp-bad-n", check_bad_ranks, program, work, folders["tiny-tied"], opts.configs_dir, gpus)
    for size in (c for c in opts.cases if c != "toys"):
        try:
            spec = family_spec(size, configs_folder(opts.configs_dir, [size]) / f"qwen3-{size}.json")
        except (OSError, ValueError, KeyError) as e:
            report.check(f"checkpoint.Qwen3-{size.upper()}", False, f"the published config: {type(e).__name__}: {e}")
            continue
        check_checkpoint(report, binary.resolve(), work, spec, ranks)
    return finish(report, opts.json, work, temporary)


if __name__ == "__main__":
    sys.exit(main())
