#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""tools/compare_sweeps.py: two model-shape sweeps compared by band of rows, the points whose choice
stayed apart from those whose choice changed, and each change of choice."""
import gzip
import json
import sys
import tempfile
import unittest
from pathlib import Path

ROOT = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "tools"))
import compare_sweeps  # noqa: E402


def record(m, choice, ours, reference):
    return {"kernel": "gemm model-shape sweep", "shape": f"{m} x 4096 x 4096 KK (a projection)", "dtype": "bf16",
            "ours": ours, "reference_value": reference, "ratio": ours / reference, "choice": choice}


class Compare(unittest.TestCase):
    def test_stayed_and_changed_points_apart(self):
        old = {(r["kernel"], r["shape"], r["dtype"]): r for r in (record(8, "swap16", 90, 100), record(300, "swap144cn2", 80, 100),
                                       record(310, "swap160cn2", 80, 100), record(9999, "n256", 99, 100))}
        # At 8 rows the reference ran 10% faster and ours held: the band falls by the reference's doing.
        new = {(r["kernel"], r["shape"], r["dtype"]): r for r in (record(8, "swap16", 90, 110), record(300, "swap144cn2", 80, 100),
                                       record(310, "swap160c2cn2", 96, 100))}
        overall, bands, moves = compare_sweeps.compare(new, old)
        self.assertEqual(overall["points"], 3)  # 9999 rows: in one run only
        small, pairs = bands
        self.assertEqual((small["rows"], small["points"], small["stayed"][0], small["changed"][0]), ((1, 16), 1, 1, 0))
        self.assertAlmostEqual(small["ours_moved"], 1.0)
        self.assertAlmostEqual(small["reference_moved"], 1.1)
        self.assertAlmostEqual(small["stayed"][1], 1 / 1.1)
        self.assertEqual((pairs["rows"], pairs["stayed"][0], pairs["changed"][0]), ((161, 320), 1, 1))
        self.assertAlmostEqual(pairs["changed"][1], 1.2)
        self.assertEqual(list(moves), [("swap160cn2", "swap160c2cn2")])
        self.assertEqual(moves[("swap160cn2", "swap160c2cn2")][0], 1)
        # --rows keeps one band.
        self.assertEqual([b["rows"] for b in compare_sweeps.compare(new, old, 161, 320)[1]], [(161, 320)])

    def test_reads_a_gzipped_part_file_and_a_plain_list(self):
        records = [record(8, "swap16", 90, 100)]
        with tempfile.TemporaryDirectory() as folder:
            part, plain = Path(folder) / "part.json.gz", Path(folder) / "sweep.json"
            with gzip.open(part, "wt") as f:
                json.dump({"records": records, "commit": "x"}, f)
            plain.write_text(json.dumps(records))
            self.assertEqual(compare_sweeps.load(part), compare_sweeps.load(plain))
            self.assertEqual(list(compare_sweeps.load(plain)),
                             [("gemm model-shape sweep", records[0]["shape"], "bf16")])

    def test_cold_warm_and_types_stay_apart(self):
        records = [record(8, "swap16", 90, 100), dict(record(8, "swap16", 80, 100), dtype="fp16"),
                   dict(record(8, "swap16", 70, 100), kernel="gemm model-shape sweep warm")]
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "sweep.json"
            path.write_text(json.dumps(records))
            self.assertEqual(len(compare_sweeps.load(path)), 3)


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1])
