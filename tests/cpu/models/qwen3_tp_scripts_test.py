#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The host side of the several-GPU tensor-parallel checks and benchmark (issue 49), without a GPU:
models/qwen3/tp_plan.py (which N a machine and a model allow, rank 0's decode-step traffic against
tensor_parallel.md's table and bench_qwen3.py's arithmetic at N = 1, the step bound, bench --profile's
lines, the records), check_report's "not run", check_qwen3_tp_gpus.py's view of a report at N (torch and
transformers mocked), decoder_program's ProgramError (the error line kept before stderr's tail),
scripts/gpu-check's report of a check not run, and bench_qwen3.py's phase_bytes (a profiled step's phases
add up to the step's weights; every phase the decoder marks is named there).

    qwen3_tp_scripts_test.py REPO
"""
import io
import json
import subprocess
import sys
import tempfile
from contextlib import redirect_stdout
from pathlib import Path
from unittest import mock

# The published configs' fields the arithmetic reads (shared/models, which CI lacks).
CONFIGS = {
    "8b": {"hidden_size": 4096, "intermediate_size": 12288, "num_hidden_layers": 36, "num_attention_heads": 32,
           "num_key_value_heads": 8, "head_dim": 128, "vocab_size": 151936, "tie_word_embeddings": False},
    "32b": {"hidden_size": 5120, "intermediate_size": 25600, "num_hidden_layers": 64, "num_attention_heads": 64,
            "num_key_value_heads": 8, "head_dim": 128, "vocab_size": 151936, "tie_word_embeddings": False},
    "30b-a3b": {"hidden_size": 2048, "intermediate_size": 6144, "num_hidden_layers": 48, "num_attention_heads": 32,
                "num_key_value_heads": 4, "head_dim": 128, "vocab_size": 151936, "tie_word_embeddings": False,
                "num_experts": 128, "num_experts_per_tok": 8, "moe_intermediate_size": 768,
                "decoder_sparse_step": 1, "mlp_only_layers": []},
}
TINY = {"hidden_size": 256, "intermediate_size": 768, "num_hidden_layers": 2, "num_attention_heads": 4,
        "num_key_value_heads": 2, "head_dim": 64, "vocab_size": 1000, "tie_word_embeddings": True}
# tensor_parallel.md's table: GB of weights rank 0 reads at batch 1, N = 1, 2, 4, 8.
TABLE_GB = {"8b": (15.14, 7.57, 3.78, 1.89), "32b": (63.97, 31.98, 15.99, 8.00), "30b-a3b": (6.08, 3.05, 1.54, 0.81)}
SMI = ("GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-aaaa1111)\nGPU 1: NVIDIA H100 80GB HBM3 (UUID: GPU-bbbb2222)\n"
       "GPU 2: NVIDIA H100 80GB HBM3 (UUID: GPU-cccc3333)\n")
PROFILE = """weights: random (seed 51)
profile batch 1: embedding              3.1 us per step (1 per step)
profile batch 1: all-reduce            360.0 us per step (73 per step)
profile batch 1: add + rmsnorm + qkv gemm  400.5 us per step (36 per step)
profile batch 1: lm head               50.0 us per step (1 per step)
profile batch 1: all-gather            10.0 us per step (1 per step)
profile batch 1: total               1200.0 us
profile batch 8: o gemm                100.0 us per step (36 per step)
profile batch 8: total                 900.0 us
"""


def main():
    repo = Path(sys.argv[1]).resolve()
    sys.path[:0] = [str(repo / "models/qwen3"), str(repo / "models/common")]
    import bench_qwen3
    import check_report
    import tp_plan
    failures = []

    def expect(what, ok):
        print(f"{'pass' if ok else 'FAIL'}: {what}")
        if not ok:
            failures.append(what)

    expect("N within the GPUs: none under 2", tp_plan.ranks_within(1) == [] and tp_plan.ranks_within(0) == [])
    expect("N within the GPUs: 2 of 3, 2 and 4 of 4, all of 8",
           tp_plan.ranks_within(3) == [2] and tp_plan.ranks_within(4) == [2, 4]
           and tp_plan.ranks_within(8) == [2, 4, 8])
    expect("the bench's own list", tp_plan.ranks_within(8, (2, 4)) == [2, 4])
    expect("nvidia-smi's GPUs", tp_plan.gpus_from_nvidia_smi(SMI) == 3)
    expect("CUDA_VISIBLE_DEVICES by index and UUID, to the first unknown entry",
           tp_plan.gpus_from_nvidia_smi(SMI, "2,0") == 2 and tp_plan.gpus_from_nvidia_smi(SMI, "GPU-bbbb,7,0") == 1
           and tp_plan.gpus_from_nvidia_smi(SMI, "") == 0 and tp_plan.gpus_from_nvidia_smi("", None) == 0)
    expect("the published configs split at 2, 4, 8 and 16, not at 3",
           all(tp_plan.splits(c, n) for c in CONFIGS.values() for n in (2, 4, 8, 16))
           and not any(tp_plan.splits(c, 3) for c in CONFIGS.values()))
    expect("tiny-tied (4 q heads) splits at 2 and 4, not at 3 or 8",
           [n for n in (2, 3, 4, 8) if tp_plan.splits(TINY, n)] == [2, 4])
    expect("tp.kv-heads: 6 kv heads at N = 4 refused", not tp_plan.splits(dict(TINY, num_attention_heads=24,
                                                                               num_key_value_heads=6), 4))
    expect("tp.intermediate: F / N a multiple of 8", not tp_plan.splits(dict(TINY, intermediate_size=776), 2))
    expect("tp.experts", not tp_plan.splits(dict(CONFIGS["30b-a3b"], num_experts=6, mlp_only_layers=[0]), 4))
    expect("an N past the GPUs that Qwen3-8B allows: the next power of two",
           [tp_plan.too_many_ranks(g) for g in (1, 2, 3, 4, 8)] == [2, 4, 4, 8, 16]
           and all(tp_plan.splits(CONFIGS["8b"], tp_plan.too_many_ranks(g)) for g in range(1, 16)))

    for size, gb in TABLE_GB.items():
        got = tuple(round(tp_plan.rank_step_traffic(CONFIGS[size], n, 1)[0] / 1e9, 2) for n in (1, 2, 4, 8))
        expect(f"{size}: rank 0's weight bytes at batch 1 are tensor_parallel.md's {gb} GB (got {got})", got == gb)
    for b in (1, 8, 32):
        expect(f"N = 1 equals bench_qwen3.py's arithmetic at batch {b}",
               abs(tp_plan.rank_step_traffic(CONFIGS["30b-a3b"], 1, b)[0]
                   / bench_qwen3.moe_weight_bytes_per_step(CONFIGS["30b-a3b"], b) - 1) < 1e-12)
    expect("N = 1 dense equals weight_bytes_per_token",
           tp_plan.rank_step_traffic(CONFIGS["8b"], 1, 1)[0] == bench_qwen3.weight_bytes_per_token(CONFIGS["8b"]))
    # bench_qwen3.phase_bytes: a profiled step's phases add up to the step's weights (the fused norm names
    # for Qwen3-8B; the MoE layers' router and experts for 30B-A3B), and every phase the decoder marks
    # (model_forward_sm90.cu, model_rank_sm90.cu, dense_ffn.cuh, kernels/moe's moe_layer) has its bytes there.
    fused = ("add + rmsnorm + qkv gemm", "o gemm", "add + rmsnorm + gate-up gemm + swiglu", "down gemm", "lm head",
             "embedding")
    dense = bench_qwen3.phase_bytes(CONFIGS["8b"], 1, 512)
    expect("Qwen3-8B's fused phases add up to weight_bytes_per_token (within the q/k norms' gains)",
           abs(sum(dense[k] for k in fused) / bench_qwen3.weight_bytes_per_token(CONFIGS["8b"]) - 1) < 1e-4)
    sparse = ("add + rmsnorm", "qkv gemm", "o gemm", "moe router", "moe experts", "lm head", "embedding")
    for b in (1, 32):
        moe = bench_qwen3.phase_bytes(CONFIGS["30b-a3b"], b, 512)
        expect(f"Qwen3-30B-A3B's phases add up to moe_weight_bytes_per_step at batch {b}",
               abs(sum(moe[k] for k in sparse) / bench_qwen3.moe_weight_bytes_per_step(CONFIGS["30b-a3b"], b) - 1)
               < 1e-4)
    import re
    sources = [repo / "models/qwen3/model_forward_sm90.cu", repo / "models/qwen3/model_rank_sm90.cu",
               repo / "models/qwen3/dense_ffn.cuh", repo / "kernels/moe/moe.cuh"]
    marked = {m for f in sources for m in re.findall(r'mark\("([^"]+)"\)', f.read_text())}
    marked -= {"start", "all-gather", "moe shared expert"}  # a rank's collective; Qwen3-MoE has no shared expert
    missing = marked - set(bench_qwen3.phase_bytes(CONFIGS["30b-a3b"], 1, 512))
    expect(f"every phase the Qwen3 decoder marks has its bytes in phase_bytes (missing {sorted(missing)})", not missing)
    weights, allreduces, wire, gather = tp_plan.rank_step_traffic(CONFIGS["8b"], 8, 32)
    expect("Qwen3-8B N = 8 batch 32: 73 all-reduces of 32 x 4096 bf16, ring 2 (N-1)/N, the gather of 7 ranks' rows",
           allreduces == 73 and wire == 73 * 32 * 4096 * 2 * 2 * 7 / 8 and gather == 7 * 32 * 18992 * 2)
    expect("one device: no collectives", tp_plan.rank_step_traffic(CONFIGS["8b"], 1, 8)[1:] == (0, 0.0, 0.0))
    # tensor_parallel_test.cpp's case of decode_step_seconds_bound: 1e9 bytes, 2 all-reduces, 2e6 wire bytes.
    bound = tp_plan.step_seconds_bound((1e9, 2, 1.5e6, 0.5e6), 1e12, 1e11, 1e-5)
    expect("the bound: weights / memory + wire / link + (all-reduces + gather) x latency",
           abs(bound - (1e-3 + 2e-5 + 3e-5)) < 1e-15)
    expect("the bound of one device is its weights alone", tp_plan.step_seconds_bound((2e9, 0, 0.0, 0.0), 1e12, 1, 1)
           == 2e-3)

    phases = tp_plan.parse_profile(PROFILE)
    expect("bench --profile's lines by batch, names with spaces, the total",
           phases[1]["add + rmsnorm + qkv gemm"] == 400.5 and phases[1]["total"] == 1200.0
           and set(phases) == {1, 8})
    expect("the collectives' share: all-reduce and all-gather over the total",
           tp_plan.collective_share(phases[1]) == (370.0, 1200.0))
    expect("no collective phase (one device, or no marks): no share", tp_plan.collective_share(phases[8]) is None)

    records = tp_plan.tp_decode_records("Qwen3-8B", 2, 8, 512, (900.0, 8.9), (500.0, 16.0), 8 / 1000.0, (370.0, 1200.0))
    names = [r["kernel"] for r in records]
    expect("three records: against one GPU, against the bound, the collectives",
           names == ["tensor parallel qwen3 decode", "tensor parallel qwen3 decode vs step bound",
                     "tensor parallel qwen3 decode collectives"])
    expect("the shape names the model, N and the batch",
           all(r["shape"] == "Qwen3-8B, N=2, batch 8, context 512 (random weights)" for r in records))
    expect("ratio = N GPUs' tok/s over one GPU's", records[0]["ratio"] == 1.8 and records[0]["reference_value"] == 500)
    expect("the bound in tok/s: batch / seconds",
           records[1]["reference_value"] == 1000.0 and records[1]["ratio"] == 0.9)
    expect("the collectives' record in us, its share the ratio",
           records[2]["unit"] == "us" and abs(records[2]["ratio"] - 370 / 1200) < 1e-15)
    keys = {"kernel", "shape", "dtype", "ours", "reference", "reference_value", "unit", "ratio", "microseconds"}
    expect("the repository's record fields", all(set(r) == keys for r in records))
    expect("no one-GPU figure, no ratio record",
           [r["kernel"] for r in tp_plan.tp_decode_records("Qwen3-32B", 2, 1, 512, (50.0, 20.0), None, 0.01, None)]
           == ["tensor parallel qwen3 decode vs step bound"])

    with tempfile.TemporaryDirectory() as tmp, redirect_stdout(io.StringIO()) as printed:
        report = check_report.Report()
        report.skip("tp-gpus", "1 GPU(s) visible")
        status = check_report.finish(report, None, Path(tmp), False)
        report.check("x", False, "broken")
        failed_status = check_report.finish(report, None, Path(tmp), False)
        both = check_report.Report()
        both.check("y", True, "")
        passed_status = check_report.finish(both, None, Path(tmp), False)
    expect("a check not run is no pass: NOT_RUN_EXIT, and named",
           status == check_report.NOT_RUN_EXIT == 3 and "check tp-gpus: NOT RUN (1 GPU(s) visible)" in
           printed.getvalue() and "0 passed, 0 failed, 1 not run" in printed.getvalue())
    expect("a failure wins over not run", failed_status == 1)
    expect("all passed: 0", passed_status == 0)

    for name in ("numpy", "torch", "torch.nn", "torch.nn.functional", "transformers", "safetensors",
                 "safetensors.torch"):
        sys.modules[name] = mock.MagicMock(name=name)
    import check_qwen3_tp_gpus as gpus_script
    with redirect_stdout(io.StringIO()):
        report = check_report.Report()
        at_two = gpus_script.RanksReport(report, 2)
        at_two.check("logits.tiny-tied", True, "fine")
        at_two.guarded("greedy.tiny-tied", lambda r: 1 / 0)
        at_two.records.append({"kernel": "qwen3 logits vs transformers fp32", "shape": "tiny-tied 512+77", "ours": 1})
    expect("a check at N: its name ends in .n2, an exception is its failure",
           report.passed == ["logits.tiny-tied.n2"] and report.failed == ["greedy.tiny-tied.n2"])
    expect("a record at N: prefixed and shaped",
           report.records == [{"kernel": "tensor parallel qwen3 logits vs transformers fp32",
                               "shape": "tiny-tied 512+77 N=2", "ours": 1}])
    import decoder_program
    with tempfile.TemporaryDirectory() as tmp:
        # A program that fails as cute-cpp-qwen3 does on a usage error: the rule's line, then the usage.
        fake = Path(tmp) / "fake-program"
        fake.write_text("#!/bin/sh\necho 'cute-cpp [qwen3.usage]: the command line: --x is refused' >&2\n"
                        "for i in 1 2 3 4 5 6 7 8; do echo \"usage line $i\" >&2; done\nexit 2\n")
        fake.chmod(0o755)
        try:
            decoder_program.Program(fake, Path(tmp)).run_ok(["logits", "--x", 1])
            message = ""
        except decoder_program.ProgramError as e:
            message = str(e)
    expect(f"ProgramError keeps the error's first line before stderr's tail ({message!r})",
           message.startswith("exit 2: ") and ": cute-cpp [qwen3.usage]: the command line: --x is refused\n...\n"
           "usage line 4\n" in message and message.endswith("usage line 8"))
    expect("stderr_summary: the error once where it is in the tail; none",
           decoder_program.stderr_summary("a\ncute-cpp [r]: b\n") == "a\ncute-cpp [r]: b"
           and decoder_program.stderr_summary(" \n") == "(no stderr)")
    program = gpus_script.RankedProgram("/bin/echo", Path(tempfile.gettempdir()), 4)
    expect("every command at N: --tensor-parallel appended",
           program.run(["logits", "--eager"]).stdout.split() == ["logits", "--eager", "--tensor-parallel", "4"])

    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        (out / "gpu-check-qwen3-tp.json").write_text(json.dumps(
            {"commit": "c1", "date": "2026-12-06", "records": [],
             "checks": [["models/qwen3 check_qwen3_tp_gpus.py --cases toys", None]]}))
        run = subprocess.run([sys.executable, str(repo / "scripts/gpu-check"), "--report-only", "--out", str(out)],
                             capture_output=True, text=True)
        md = (out / "h200.md").read_text()
        expect("gpu-check: a check not run is listed as such, named at the top, and fails nothing",
               run.returncode == 0 and "| models/qwen3 check_qwen3_tp_gpus.py --cases toys | not run |" in md
               and "- not run here (needs more GPUs than this machine has): models/qwen3 check_qwen3_tp_gpus.py"
               in "\n".join(md.splitlines()[:4]))
        (out / "gpu-check-qwen3-tp-8b.json").write_text(json.dumps(
            {"commit": "c1", "date": "2026-12-06", "records": [], "checks": [["qwen3-tp-8b", False]]}))
        run = subprocess.run([sys.executable, str(repo / "scripts/gpu-check"), "--report-only", "--out", str(out)],
                             capture_output=True, text=True)
        expect("gpu-check: a failure beside it still fails", run.returncode == 1)
    print("qwen3 tensor-parallel scripts: " + ("FAIL" if failures else "pass"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
