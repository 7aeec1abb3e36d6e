#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""tools/compare_candidates.py: two candidate sweeps compared candidate by candidate, each against its
own run's cuBLASLt."""
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

ROOT = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "tools"))
import compare_candidates  # noqa: E402
from fit_gemm_tiles import parse  # noqa: E402

A = """floor 3.6
cublas 138 4096 4096 20.0
chosen 138 4096 4096 n256
dispatch 138 4096 4096 swap144
candidate 138 4096 4096 swap144 heuristic 25.0
candidate 138 4096 4096 swap144c2 heuristic 24.0
cublas 601 4096 4096 40.0
chosen 601 4096 4096 n256
dispatch 601 4096 4096 swap160c2cn2
candidate 601 4096 4096 swap160c2cn2 heuristic 50.0
"""
# B: cuBLASLt 10% slower at 138 rows (the run's drift), swap144 as fast as before in time (so 10%
# better against its cuBLASLt), swap144c2 20% faster in time; 601 rows unchanged; a candidate only
# B measured is left out.
B = """floor 3.6
cublas 138 4096 4096 22.0
chosen 138 4096 4096 n256
dispatch 138 4096 4096 swap144
candidate 138 4096 4096 swap144 heuristic 25.0
candidate 138 4096 4096 swap144c2 heuristic 20.0
candidate 138 4096 4096 swap160 heuristic 20.0
cublas 601 4096 4096 40.0
chosen 601 4096 4096 n256
dispatch 601 4096 4096 swap160c2cn2
candidate 601 4096 4096 swap160c2cn2 heuristic 50.0
"""


class Compare(unittest.TestCase):
    def sweeps(self, folder):
        paths = []
        for name, text in (("a.txt", A), ("b.txt", B)):
            path = Path(folder) / name
            path.write_text(text)
            paths.append(path)
        return paths

    def test_each_candidate_against_its_own_runs_cublas(self):
        with tempfile.TemporaryDirectory() as folder:
            a, b = (parse(p)[1] for p in self.sweeps(folder))
        r = compare_candidates.compare(a, b)
        self.assertEqual(r["all"][1], 3)  # swap160 at 138 rows: in B only
        self.assertAlmostEqual(r["by_tile"]["swap144"][0], 1.1)
        self.assertAlmostEqual(r["by_tile"]["swap144c2"][0], 1.1 * 1.2)
        self.assertAlmostEqual(r["by_tile"]["swap160c2cn2"][0], 1.0)
        self.assertAlmostEqual(r["by_m"][601][0], 1.0)
        self.assertAlmostEqual(r["dispatch"][0], (1.1 * 1.0) ** 0.5)  # swap144 at 138, swap160c2cn2 at 601
        self.assertAlmostEqual(r["cublas"], 1.1 ** 0.5)
        only = compare_candidates.compare(a, b, tiles={"swap144c2"})
        self.assertEqual(only["all"][1], 1)

    def test_the_command_prints_the_figures(self):
        with tempfile.TemporaryDirectory() as folder:
            a, b = self.sweeps(folder)
            out = subprocess.run([sys.executable, str(ROOT / "tools/compare_candidates.py"), str(a), str(b)],
                                 capture_output=True, text=True, check=True).stdout
        self.assertIn("B / A over 3 candidates", out)
        self.assertIn("by tile, worst first: swap160c2cn2 1.000", out)


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1])
