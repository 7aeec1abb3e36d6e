#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""tools/gpu_check_report.py's model-shape sweep summary: the geomean of each band of rows of C."""
import math
import sys
import unittest
from pathlib import Path

ROOT = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "tools"))
import gpu_check_report as report  # noqa: E402


def point(m, ratio, warm=False):
    return {"kernel": "gemm model-shape sweep" + (" warm" if warm else ""), "shape": f"{m} x 4096 x 4096 KK (x)",
            "dtype": "bf16", "ratio": ratio, "reference": "cublasGemmEx"}


class Bands(unittest.TestCase):
    def test_each_band_its_geomean_and_count(self):
        lines = report.model_sweep_bands([point(16, 1.0), point(17, 0.5), point(64, 2.0), point(1280, 0.8),
                                          point(100, 0.9, warm=True)])
        cold = next(line for line in lines if line.startswith("| cold"))
        cells = [c.strip() for c in cold.split("|")[2:-1]]
        self.assertEqual(len(cells), len(report.ROW_BANDS))
        self.assertEqual(cells[0], "1.000 (1)")
        self.assertEqual(cells[1], f"{math.sqrt(0.5 * 2.0):.3f} (2)")
        self.assertEqual(cells[5], "0.800 (1)")  # 641-1280
        self.assertEqual(cells[2], "")
        warm = next(line for line in lines if line.startswith("| warm"))
        self.assertIn("0.900 (1)", warm)

    def test_no_warm_points_no_warm_row(self):
        self.assertFalse(any(line.startswith("| warm") for line in report.model_sweep_bands([point(8, 1.0)])))


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1])
