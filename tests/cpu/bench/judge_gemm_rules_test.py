#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""tools/judge_gemm_rules.py: its mirror of choose_gemm_plan makes the choices the C++ tests assert
(tests/cpu/cute_cpp/gemm_tile_test.cpp, ChooseGemmPlan), and it reads a sweep's lines."""
import gzip
import sys
import tempfile
import unittest
from pathlib import Path

ROOT = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "tools"))
import judge_gemm_rules as judge  # noqa: E402

HEURISTIC = {"chosen": "n256"}  # choose_gemm_tile's tile, as a sweep's `chosen` line gives it


def tile(m, n, k):
    return judge.rules((m, n, k), HEURISTIC)[0]


class Mirror(unittest.TestCase):
    def test_covering_tiles(self):
        for m, want in ((65, "swap80"), (80, "swap80"), (129, "swap144"), (145, "swap160"), (160, "swap160")):
            self.assertEqual(tile(m, 4096, 4096), want, m)
        self.assertEqual(tile(100, 4096, 4096), "n256")
        self.assertEqual(tile(70, 128, 4096), "n256")

    def test_pairs(self):
        for m, want in ((161, "swap96cn2"), (193, "swap112cn2"), (256, "swap128cn2"), (288, "swap144cn2"),
                        (320, "swap160cn2")):
            self.assertEqual(judge.paired(m, 4096, 4096), want, m)
        self.assertEqual(judge.paired(194, 8448, 2048), "swap112cn2")  # 132 CTAs: one wave
        self.assertIsNone(judge.paired(194, 8704, 2048))  # 136: the wide token tile instead
        self.assertEqual(judge.paired(272, 151936, 4096), "swap144cn2")

    def test_fewest_waves(self):
        # gemm_tile_test.cpp's PairsGiveWayToClustersOfFourOrWiderTilesWhereTheyLeaveLessWorkAWave
        self.assertEqual(tile(272, 4096, 4096), "swap144cn2")
        self.assertEqual(tile(272, 6144, 4096), "swap160c2cn2")
        self.assertEqual(tile(537, 8192, 28672), "swap144x256cn2")
        self.assertEqual(tile(845, 8192, 28672), "swap224c2")
        self.assertEqual(tile(845, 14336, 4096), "swap224c2cn2")
        self.assertEqual(tile(272, 2048, 4096), judge.paired(272, 2048, 4096))  # the small problem's rule applies too
        self.assertEqual(tile(272, 1024, 2048), judge.load_ranked(272, 1024, 2048))  # unless the weights are small
        self.assertEqual(judge.pairs_only((537, 8192, 28672), HEURISTIC)[0], "swap192c2")

    def test_small_problems(self):
        self.assertEqual(tile(537, 1024, 2048), "swap112")
        self.assertEqual(tile(500, 1024, 1024), "swap128")
        self.assertIsNone(judge.small_problem(537, 1536, 7168))  # loads more: the wide token tile
        self.assertIsNone(judge.small_problem(537, 4096, 2048))

    def test_wide_token_tiles(self):
        for m, want in ((341, "swap176c2"), (366, "swap192c2"), (512, "swap256c2"), (513, "swap176c2"),
                        (537, "swap192c2"), (681, "swap240c2"), (845, "swap224c2"), (1070, "swap224c2"),
                        (1280, "swap256c2")):
            self.assertEqual(judge.wide_token(m, 4096), want, m)
        self.assertEqual(judge.wide_token(1329, 4096), "swap224c2")  # 6 x 224
        self.assertEqual(judge.wide_token(2560, 4096), "swap256c2")
        self.assertIsNone(judge.wide_token(2561, 4096))
        self.assertIsNone(judge.wide_token(1329, 4096, most_tiles=5))
        self.assertEqual(tile(2561, 4096, 4096), "n256")

    def test_wide_weights_at_a_few_score_rows(self):
        # gemm_tile_test.cpp's WideWeightsAtAFewScoreRowsTakePingPongPairsOrWideTokenTiles
        wide_row = {"chosen": "n256c1"}
        self.assertEqual(judge.rules((98, 128256, 4096), wide_row)[0], "n256m64")
        self.assertEqual(judge.rules((98, 4096, 4096), {"chosen": "n128c1"})[0], "n128c1")
        self.assertIsNone(judge.pingpong_wide(64, wide_row))
        self.assertIsNone(judge.pingpong_wide(129, wide_row))
        self.assertEqual(judge.rules_at_532ff11((98, 128256, 4096), wide_row)[0], "n256c1")
        self.assertEqual(tile(138, 4096, 8191), "swap144")
        self.assertEqual(tile(138, 4096, 8192), "swap144c2")
        self.assertEqual(tile(138, 5119, 2048), "swap144")
        self.assertEqual(tile(145, 5120, 2048), "swap160c2")
        self.assertEqual(tile(154, 151936, 4096), "swap160c2")
        self.assertEqual(judge.rules_at_b123a17((138, 4096, 8192), HEURISTIC)[0], "swap176c2")
        self.assertEqual(judge.rules_at_b123a17((154, 151936, 4096), HEURISTIC)[0], "swap176c2")
        self.assertEqual(judge.rules_at_532ff11((154, 151936, 4096), HEURISTIC)[0], "swap160")
        self.assertEqual(tile(70, 151936, 4096), "swap80")

    def test_small_weights_take_the_swapped_tile_that_loads_least(self):
        # gemm_tile_test.cpp's SmallWeightsTakeTheSwappedTileThatLoadsLeast
        for shape, want in (((138, 1024, 2048), "swap32"), ((70, 1024, 2048), "swap32"),
                            ((154, 2048, 2048), "swap80"), ((70, 2048, 2048), "swap64"),
                            ((80, 4096, 2048), "swap80"), ((150, 1024, 4096), "swap64"),
                            ((150, 1024, 4097), "swap160"), ((145, 6144, 1024), "swap160c2")):
            self.assertEqual(tile(*shape), want, shape)
        self.assertEqual(judge.rules_at_f3d615d((138, 1024, 2048), HEURISTIC)[0], "swap144")

    def test_a_few_hundred_rows_of_small_or_large_weights_leave_the_pairs(self):
        # gemm_tile_test.cpp's AFewHundredRowsOfSmallOrLargeWeightsLeaveThePairs
        for shape, want in (((201, 1024, 1536), "swap64"), ((300, 768, 2048), "swap64"),
                            ((320, 4096, 1024), "swap80"), ((272, 1024, 2048), "swap80"),
                            ((272, 2048, 4096), "swap144cn2"), ((230, 5120, 17408), "n256"),
                            ((189, 5120, 17408), "swap192c2"), ((256, 4096, 8192), "n256"),
                            ((256, 4096, 8191), "swap128cn2"), ((257, 4096, 8192), "swap144cn2"),
                            ((270, 5120, 17408), "swap144cn2")):
            self.assertEqual(tile(*shape), want, shape)
        self.assertIsNone(judge.small_weights_paired(160, 1024, 1536))
        self.assertIsNone(judge.small_weights_paired(321, 1024, 1536))
        self.assertIsNone(judge.paired(230, 5120, 17408))
        self.assertEqual(judge.paired(230, 5120), "swap128cn2")  # without k: as before
        self.assertEqual(judge.rules_at_14a6ba5((230, 5120, 17408), HEURISTIC)[0], "swap128cn2")
        self.assertEqual(judge.rules_at_14a6ba5((150, 1024, 8192), HEURISTIC)[0], "swap64")

    def test_the_128_x_256_pairs_weigh_in_where_they_pad_little(self):
        # gemm_tile_test.cpp's The128x256PairsAlongMWeighInWhereTheyPadLittle
        self.assertEqual(tile(1281, 4096, 4096), "swap224c2cn2")  # the pairs along M would pad to 1536
        self.assertEqual(tile(1332, 1536, 2048), "swap224c2")
        self.assertEqual(tile(2048, 4096, 4096), "n256")
        self.assertEqual(tile(505, 10304, 2688), "n256")  # 512 rows: not 4 x 144 by 256 columns
        self.assertEqual(judge.rules_at_532ff11((505, 10304, 2688), HEURISTIC)[0], "swap144x256cn2")
        self.assertEqual(judge.rules_at_532ff11((1332, 4096, 4096), HEURISTIC)[0], "n256")
        self.assertEqual(tile(537, 128, 4096), "n256")
        self.assertEqual(judge.tile_load_cost(537, 1024, 2048, 112, 128), 11 * 240 + 112 * 128 // 16)
        self.assertEqual(judge.tile_load_cost(537, 1024, 2048, 128, 256), 8 * 384 + 128 * 256 // 16)

    def test_skinny_rows_take_the_simt_kernel(self):
        self.assertEqual(judge.rules((2, 4096, 4096), HEURISTIC), ("simt", ""))


class Report(unittest.TestCase):
    def test_a_sweep_cut_short_leaves_out_its_last_shape(self):
        lines = ["cublas 537 1024 2048 10.0", "candidate 537 1024 2048 swap96 8.0", "cublas 600 1024 2048 11.0",
                 "candidate 600 1024 2048 swap96 9.0", "candidate 600 1024 2048 swap1"]
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "sweep.txt"
            path.write_text("\n".join(lines))
            self.assertEqual(list(judge.parse(path)[1]), [(537, 1024, 2048)])
            path.write_text("\n".join(lines[:-1]) + "\n")
            self.assertEqual(len(judge.parse(path)[1]), 2)
            path.write_text("\n".join(lines[:-1] + ["candidate 60"]))  # cut inside the shape
            self.assertEqual(list(judge.parse(path)[1]), [(537, 1024, 2048)])

    def test_a_sweep_is_judged(self):
        lines = ["floor 3.7", "cublas 537 1024 2048 10.0", "chosen 537 1024 2048 n256",
                 "dispatch 537 1024 2048 swap112", "candidate 537 1024 2048 n256 heuristic 20.0",
                 "candidate 537 1024 2048 swap112 heuristic 12.5", "candidate 537 1024 2048 swap96 8.0"]
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "sweep.txt"
            path.write_text("\n".join(lines) + "\n")
            shapes = judge.parse(path)[1]
        self.assertEqual(judge.ratios(shapes, judge.rules), [10.0 / 12.5])
        best = [e["cublas"] / min(e["times"].values()) for e in shapes.values()]
        self.assertEqual(best, [10.0 / 8.0])

    def test_a_gzipped_sweep_reads_as_its_text(self):
        # bench/results keeps the candidate sweeps gzipped.
        lines = ["cublas 537 1024 2048 10.0", "chosen 537 1024 2048 n256", "candidate 537 1024 2048 swap96 8.0"]
        with tempfile.TemporaryDirectory() as folder:
            plain, packed = Path(folder) / "sweep.txt", Path(folder) / "sweep.txt.gz"
            plain.write_text("\n".join(lines) + "\n")
            with gzip.open(packed, "wt") as f:
                f.write("\n".join(lines) + "\n")
            self.assertEqual(judge.parse(packed), judge.parse(plain))
            self.assertEqual(list(judge.parse(packed)[1]), [(537, 1024, 2048)])


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1])
