#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""tools/figure_moves.py and its place in scripts/gpu-check's report: a figure that fell beyond its
group's noise since the last record is listed, its part named in the report's first lines; one
that moved within noise, or that was measured at the same commit as its last record, is not; the
noise of two runs of one binary is the largest change seen, with a margin."""
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
import figure_moves as fm  # noqa: E402


def rec(kernel, ours, commit, unit="TFLOP/s", shape="4096", reference="cuBLAS"):
    return {"kernel": kernel, "shape": shape, "dtype": "bf16", "ours": ours, "reference": reference,
            "reference_value": 1.0, "unit": unit, "ratio": ours, "microseconds": 1.0, "commit": commit}


def main():
    failures = []

    def expect(what, ok):
        print(f"{'pass' if ok else 'FAIL'}: {what}")
        if not ok:
            failures.append(what)

    last = [rec("gemm_sm90 auto:", 600, "a1"), rec("qwen3 decode", 5597, "a1", unit="tok/s"),
            rec("rmsnorm", 3000, "a1", unit="GB/s"), rec("qwen3 step", 10.0, "a1", unit="ms"),
            rec("fmha", 600, "a1", reference="cuDNN"), rec("fmha", 500, "a1", reference="PyTorch SDPA")]
    now = [rec("gemm_sm90 auto:", 590, "b2"), rec("qwen3 decode", 4583, "b2", unit="tok/s"),
           rec("rmsnorm", 3000, "a1", unit="GB/s"), rec("qwen3 step", 12.0, "b2", unit="ms"),
           rec("fmha", 700, "b2", reference="cuDNN"), rec("fmha", 500, "b2", reference="PyTorch SDPA")]
    moved = fm.moves(now, last, {"default": 0.05})
    names = [(m[0]["kernel"], round(m[2], 3)) for m in moved]
    expect("the decode figure fell 18% and leads", names[0] == ("qwen3 decode", round(4583 / 5597 - 1, 3)))
    expect("a time that grew is a fall", ("qwen3 step", round(10 / 12 - 1, 3)) in names)
    expect("a rise beyond noise is listed after the falls", names[-1] == ("fmha", round(700 / 600 - 1, 3)))
    expect("a 1.7% move is within 5% noise", all(k != "gemm_sm90 auto:" for k, _ in names))
    expect("a record of the same commit is not compared", all(k != "rmsnorm" for k, _ in names))
    expect("records apart by reference are apart", len(names) == 3)
    noise = fm.noise_between([rec("gemm_sm90 auto:", 600, "x"), rec("qwen3 decode", 5000, "x", unit="tok/s")],
                             [rec("gemm_sm90 auto:", 612, "x"), rec("qwen3 decode", 4990, "x", unit="tok/s")])
    expect("a group's noise is 1.5x its largest change", abs(noise["gemm_sm90"] - 0.03) < 1e-9)
    expect("a group's noise has a floor", noise["qwen3"] == fm.NOISE_FLOOR)
    sweep_last = [rec("gemm model-shape sweep", 600, "a1", shape="16 x 6144 x 4096 KK (Llama-3-8B qkv)",
                      reference="cublasGemmEx")]
    sweep_now = [rec("gemm model-shape sweep", 500, "b2", shape="16 x 6144 x 4096 KK (Llama-3-8B qkv)",
                     reference="cublasLt algo 3")]
    swept = fm.moves(sweep_now, sweep_last, {"default": 0.05})
    expect("a model-sweep figure is compared whichever reference was faster", len(swept) == 1)
    expect("the model sweep's cold and warm records are noise groups of their own",
           fm.group(sweep_now[0]) == "gemm model-shape sweep" and
           fm.group(rec("gemm model-shape sweep warm", 1, "x")) == "gemm model-shape sweep warm")
    lines = fm.summary(moved, lambda r: "qwen3-bench" if r["kernel"].startswith("qwen3") else "examples")
    expect("the first line names the parts that fell", lines[0] == "- regressions beyond noise: qwen3-bench (2)")

    # Through gpu-check --report-only: a part's file against the committed h200.json of the last run.
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        (out / "h200.json").write_text(json.dumps(last))
        (out / "gpu-check-qwen3-bench.json").write_text(json.dumps(
            {"commit": "b2", "date": "2026-12-05", "checks": [["qwen3 bench", True]],
             "records": [{k: v for k, v in rec("qwen3 decode", 4583, "b2", unit="tok/s").items() if k != "commit"}]}))
        run = subprocess.run([sys.executable, str(ROOT / "scripts/gpu-check"), "--report-only", "--out", str(out)],
                             capture_output=True, text=True)
        report = (out / "h200.md").read_text().splitlines()
        expect("gpu-check's report names the part in its first lines",
               run.returncode == 0 and "- regressions beyond noise: qwen3-bench (1)" in report[:4])

        # The model-shape sweep's records: summarised (all and held-out), not listed one by one.
        point = dict(rec("gemm model-shape sweep", 0.9, "b2", shape="1 x 6144 x 4096 KK (Llama-3-8B qkv)"),
                     ratio=0.9, half="held-out")
        del point["commit"]
        (out / "gpu-check-gemm-model-sweep-1.json").write_text(json.dumps(
            {"commit": "b2", "date": "2026-12-05", "checks": [["bench_gemm --model-sweep bf16 KK", True]],
             "records": [point]}))
        run = subprocess.run([sys.executable, str(ROOT / "scripts/gpu-check"), "--report-only", "--out", str(out)],
                             capture_output=True, text=True)
        report = (out / "h200.md").read_text()
        expect("the model sweep is summarised for all points and the held-out half",
               run.returncode == 0 and "| cold | bf16 KK | held-out | 1 | 0.900 | 0.900 | 1 |" in report and
               "| cold | all | all | 1 |" in report)
        expect("the model sweep's points are not in the figures table",
               "| gemm model-shape sweep | 1 x 6144" not in report)
        expect("the model sweep's points are in h200.json",
               any(r.get("half") == "held-out" for r in json.loads((out / "h200.json").read_text())))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
