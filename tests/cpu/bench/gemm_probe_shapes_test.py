#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""tools/gemm_probe_shapes.py: the projections it reads from the published configs, and the unseen
probe it draws (the same shapes for a seed, new ones for another, never a fixed probe's rows)."""
import json
import sys
import unittest
from pathlib import Path

ROOT = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "tools"))
import gemm_probe_shapes as shapes  # noqa: E402


def config(name):
    return json.loads((ROOT / "shared/models" / f"{name}.json").read_text())


class Projections(unittest.TestCase):
    def test_qwen3_8b_has_its_five_linear_layers(self):
        self.assertEqual(shapes.config_projections(config("qwen3-8b")),
                         {(6144, 4096), (4096, 4096), (24576, 4096), (4096, 12288), (151936, 4096)})

    def test_qwen3_0_6b_attention_is_wider_than_its_hidden_size(self):
        got = shapes.config_projections(config("qwen3-0.6b"))
        self.assertIn((4096, 1024), got)  # 16 q + 2 x 8 kv heads of 128
        self.assertIn((1024, 2048), got)  # o: 16 heads of 128 into 1024

    def test_the_moe_experts_gate_and_up_together(self):
        got = shapes.config_projections(config("qwen3-30b-a3b"))
        self.assertIn((1536, 2048), got)
        self.assertIn((2048, 768), got)

    def test_nemotron_mamba_and_ungated_experts(self):
        got = shapes.config_projections(config("nemotron-3-nano-30b-a3b"))
        self.assertIn((2 * 4096 + 2 * 8 * 128 + 64, 2688), got)  # in_proj: z, x, B, C, dt
        self.assertIn((2688, 4096), got)  # out_proj
        self.assertIn((1856, 2688), got)  # an expert's up projection, no gate
        self.assertNotIn((2 * 3712, 2688), got)  # nor the shared expert's (3712 wide)

    def test_every_config_is_read(self):
        self.assertGreaterEqual(len(shapes.model_projections()), 30)


class UnseenProbe(unittest.TestCase):
    def test_a_seed_draws_the_same_shapes(self):
        self.assertEqual(shapes.unseen_shapes("20261206"), shapes.unseen_shapes("20261206"))

    def test_another_seed_draws_other_rows(self):
        self.assertNotEqual(shapes.unseen_shapes("20261206")[0], shapes.unseen_shapes("20261207")[0])

    def test_rows_are_distinct_in_range_and_none_a_fixed_probes(self):
        for seed in range(20):
            rows, nks = shapes.unseen_shapes(seed)
            self.assertEqual(len(set(rows)), shapes.UNSEEN_ROWS)
            self.assertTrue(all(shapes.UNSEEN_RANGE[0] <= m <= shapes.UNSEEN_RANGE[1] for m in rows))
            self.assertFalse(set(rows) & (set(shapes.PROBE_ROWS) | set(shapes.NARROW_ROWS)))
            self.assertEqual(len(nks), shapes.UNSEEN_PROJECTIONS)
            self.assertTrue(set(nks) <= set(shapes.model_projections()))


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1])
