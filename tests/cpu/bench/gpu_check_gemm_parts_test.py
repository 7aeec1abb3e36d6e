#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""scripts/gpu-check's GEMM candidate parts run end to end on a stand-in bench_gemm (a script that
prints a candidate sweep's lines for the shapes it is given): the unseen probe names its seed and
shapes in the log, hands bench_gemm exactly those shapes, and runs fit_gemm_tiles.py and
judge_gemm_rules.py on the lines, so a part that only runs on the lent machine is checked here."""
import importlib.machinery
import importlib.util
import json
import os
import stat
import sys
import tempfile
import unittest
from pathlib import Path

ROOT = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "tools"))
import gemm_probe_shapes  # noqa: E402

STAND_IN = """#!/bin/sh
# $1 = --candidate-sweep, $2 = --shapes, $3 = the shapes: two candidates a shape, the swapped one faster.
echo "floor 3.7"
echo "$3" | tr ',' '\\n' | tr 'x' ' ' | while read m n k; do
  echo "cublas $m $n $k 10.0"; echo "chosen $m $n $k n256"; echo "dispatch $m $n $k n256"
  echo "candidate $m $n $k n256 heuristic 12.5"; echo "candidate $m $n $k swap96 heuristic 10.0"
done
"""


def load_gpu_check():
    loader = importlib.machinery.SourceFileLoader("gpu_check", str(ROOT / "scripts/gpu-check"))
    spec = importlib.util.spec_from_loader("gpu_check", loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


class UnseenPart(unittest.TestCase):
    def test_runs_the_seeded_shapes_and_judges_them(self):
        gpu_check = load_gpu_check()
        with tempfile.TemporaryDirectory() as folder:
            build, out = Path(folder) / "build", Path(folder) / "out"
            (build / "bench/manifest").mkdir(parents=True)
            (build / "bench/gemm").mkdir(parents=True)
            out.mkdir()
            (build / "bench/manifest/bench_gemm.json").write_text(json.dumps({"family": "gemm", "name": "bench_gemm"}))
            program = build / "bench/gemm/bench_gemm"
            program.write_text(STAND_IN)
            program.chmod(program.stat().st_mode | stat.S_IXUSR)
            os.environ["CUTE_CPP_UNSEEN_SEED"] = "7"
            checks, records = [], []
            with open(out / "log.txt", "w") as log:
                gpu_check.part_gemm_candidates_unseen(build, out, log, checks, records)
            text = (out / "log.txt").read_text()
            lines = (out / "gemm-candidates-unseen.txt").read_text()
        rows, nks = gemm_probe_shapes.unseen_shapes("7")
        self.assertEqual(checks, [("bench_gemm candidate sweep, gemm-candidates-unseen's shapes", True)])
        self.assertEqual(records, [])
        self.assertIn(f"seed 7, rows {' '.join(map(str, rows))}", text)
        self.assertEqual(lines.count("\ncublas "), len(rows) * len(nks))
        self.assertIn(f"cublas {rows[0]} {nks[0].replace('x', ' ')} 10.0", lines)
        self.assertIn("judge_gemm_rules.py on gemm-candidates-unseen", text)
        self.assertIn("best measured        geomean 1.000", text)  # swap96 at cuBLAS's 10 us everywhere


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1])
