# SPDX-License-Identifier: Apache-2.0
"""tools/fit_gemm_tiles.py on a small made-up candidate sweep: what it parses, which choices a
shape may take, the 64-choice cut and the table it writes."""
import importlib.util
import re
import tempfile
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("fit_gemm_tiles", ROOT / "tools/fit_gemm_tiles.py")
fit = importlib.util.module_from_spec(spec)
spec.loader.exec_module(fit)

SWEEP = """floor 3.1
cublas 4 6 8 4.7
chosen 4 6 8 swap16
dispatch 4 6 8 simt whole
candidate 4 6 8 simt 4.5
candidate 4 6 8 swap16 5.3
candidate 4 6 8 swap16 heuristic 5.3
cublas 5 12 8 4.8
chosen 5 12 8 swap16
candidate 5 12 8 simt 4.6
candidate 5 12 8 swap16 heuristic 5.4
cublas 4096 4096 4096 100.0
chosen 4096 4096 4096 n256
dispatch 4096 4096 4096 n256
candidate 4096 4096 4096 n256 heuristic 98.0
candidate 4096 4096 4096 n256 stream-K 97.0
candidate 4096 4096 4096 n128 split 4 140.0
"""


class FitGemmTiles(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        path = Path(self.dir.name) / "candidates.txt"
        path.write_text(SWEEP)
        self.floor, self.shapes = fit.parse(path)

    def tearDown(self):
        self.dir.cleanup()

    def test_parses_every_figure(self):
        self.assertEqual(self.floor, 3.1)
        self.assertEqual(set(self.shapes), {(4, 6, 8), (5, 12, 8), (4096, 4096, 4096)})
        big = self.shapes[(4096, 4096, 4096)]
        self.assertEqual(big["cublas"], 100.0)
        self.assertEqual(big["chosen"], "n256")
        self.assertEqual(big["times"][("n128", "split 4")], 140.0)
        self.assertEqual(big["times"][("n256", "stream-K")], 97.0)
        # The dispatch's choice as the candidate that ran it; a sweep from before the line has none.
        self.assertEqual(big["dispatch"], ("n256", "heuristic"))
        self.assertEqual(self.shapes[(4, 6, 8)]["dispatch"], ("simt", ""))
        self.assertNotIn("dispatch", self.shapes[(5, 12, 8)])
        self.assertEqual(fit.dispatch_candidate(["n128c1", "split", "4"]), ("n128c1", "split 4"))

    def test_good_sets_are_within_five_percent(self):
        self.assertEqual(fit.good_set(self.shapes[(4096, 4096, 4096)]), {("n256", "heuristic"), ("n256", "stream-K")})
        self.assertEqual(fit.good_set(self.shapes[(4, 6, 8)]), {("simt", "")})

    def test_simt_only_where_the_skinny_kernel_runs(self):
        table = {s: fit.good_set(e) for s, e in self.shapes.items()}
        choices = fit.ordered_choices(table)
        self.assertEqual(fit.predict((6, 10, 8), table, choices), ("simt", ""))
        # 12 x 10 is past the skinny kernel's 8 rows, and its neighbours were good only with SIMT.
        only_tiny = {s: g for s, g in table.items() if s[0] < 100}
        self.assertIsNone(fit.predict((12, 10, 8), only_tiny, fit.ordered_choices(only_tiny)))
        # Both of its good choices are good there: the earlier one (heuristic before stream-K).
        self.assertEqual(fit.predict((4096, 4096, 4000), table, choices), ("n256", "heuristic"))

    def test_keep_most_serves_every_shape(self):
        # 30 shapes, each good with one of 3 shared choices and one of its own.
        table = {(i, i, i): {(fit.TILES[i % 3], ""), ("n64", f"split {i}")} for i in range(2, 32)}
        kept = fit.keep_most(table, most=10)
        self.assertEqual(len(fit.ordered_choices(kept)), 10)
        self.assertTrue(all(kept[s] for s in table))
        # More shapes than choices to serve them: still at most `most`.
        table = {(i, i, i): {("n64", f"split {i}")} for i in range(2, 32)}
        self.assertEqual(len(fit.ordered_choices(fit.keep_most(table, most=10))), 10)

    def test_writes_a_table_naming_its_commit(self):
        table = {s: fit.good_set(e) for s, e in self.shapes.items()}
        target = Path(self.dir.name) / "table.hpp"
        old, fit.TABLE, fit.ROOT = fit.TABLE, target, Path(self.dir.name)
        try:
            fit.write_table(table, "abc1234")
        finally:
            fit.TABLE, fit.ROOT = old, ROOT
        text = target.read_text()
        self.assertIn("at abc1234", text)
        self.assertIn("{GemmTile::simt, Decomposition::DataParallel, 0},", text)
        self.assertIn("{GemmTile::n256, Decomposition::StreamK, 0},", text)
        self.assertIn("// 4096x4096x4096", text)
        self.assertIn("gemm_table_probes[] = {", text)

    def test_tiles_are_the_headers_in_its_order(self):
        # TILES copies gemm_tile_names (kernels/gemm/gemm_tile_choice.hpp), whose order sorts a table.
        header = (ROOT / "kernels/gemm/gemm_tile_choice.hpp").read_text()
        names = header[header.index("gemm_tile_names[] = {"):]
        names = names[:names.index("};")]
        self.assertEqual(fit.TILES, re.findall(r'\{GemmTile::\w+, "(\w+)"\}', names))


if __name__ == "__main__":
    unittest.main()
