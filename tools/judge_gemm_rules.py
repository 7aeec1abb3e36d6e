#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Judges the GEMM dispatch's rules for a linear layer (bf16, K-major A and B) and candidate variants
of them on a candidate sweep's measured times (`bench_gemm --candidate-sweep`: every tile under every
cut, cold, beside cuBLASLt; gpu-check's gemm-candidates-* parts), so a rule read from one sweep is
judged on another (gemm-candidates-unseen) without a device call of its own (issue 43).

`rules` mirrors choose_gemm_plan (kernels/gemm/plans.hpp, gemm_tile_choice.hpp) for K-major operands
past the skinny kernel's rows: a shape's choice is a tile under the heuristic's cut, timed as the
sweep's candidate of that name. Each sweep's `dispatch` lines are the C++ choice at the commit it
ran; where `rules` differs from them the report counts it (lines of another commit, or a mirror
gone stale). Variants (VARIANTS) are rules not taken, kept here to be judged again.

    tools/judge_gemm_rules.py CANDIDATES...     per file and over all: each rule's geomean and
                                                minimum of cuBLASLt / ours, and the best measured
                                                (a CANDIDATES file may be gzipped, as bench/results
                                                keeps them)"""
import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from fit_gemm_tiles import geomean, parse, time_of  # noqa: E402

SMS = 132  # the H100's and H200's
SKINNY_DISPATCH_ROWS = 2  # plans.hpp's skinny_dispatch_rows: the SIMT kernel, whole tiles
WIDE = (80, 96, 112, 128, 144, 160)
PAIRED = (96, 112, 128, 144, 160)
WEIGHTS_PAST_L2 = 1 << 25  # gemm_tile_choice.hpp's weights_past_l2
COVERING_PAIRS_COLUMNS = 5120  # gemm_tile_choice.hpp's covering_pairs_columns
SMALL_WEIGHTS = 1 << 22  # gemm_tile_choice.hpp's small_weights


def cdiv(a, b):
    return -(-a // b)


def tile_load_cost(m, n, k, rows, cols, sms=SMS):
    """gemm_tile_choice.hpp's tile_load_cost."""
    k_blocks, best = cdiv(k, 64), None
    for splits in range(1, 5):
        if splits > 1 and k_blocks < 2 * splits:
            break
        partials = rows * cols // 16 if splits > 1 else 0
        cost = cdiv(cdiv(m, rows) * cdiv(n, cols) * splits, sms) * ((rows + cols) * cdiv(k_blocks, splits) + partials)
        best = cost if best is None else min(best, cost)
    return best


def covering(m, n, k=None, pairs=True):
    """covering_swapped_tile; without k, as before it left weights past L2 at 129-160 rows to
    wide_token; without pairs, as before it paired its 144- and 160-row tiles along C's columns
    (swap144c2, swap160c2) from COVERING_PAIRS_COLUMNS or weights past L2."""
    if m <= 64 or n <= 128 or cdiv(m, 128) * 128 * 5 < m * 8:
        return None
    if k is not None and m > 128 and pairs and (n >= COVERING_PAIRS_COLUMNS or n * k >= WEIGHTS_PAST_L2):
        return "swap144c2" if m <= 144 else "swap160c2"
    if k is not None and m > 128 and n * k >= WEIGHTS_PAST_L2:
        return None
    return next((f"swap{r}" for r in WIDE if r >= m), None)


def load_ranked(m, n, k, sms=SMS):
    """load_ranked_swapped_tile: the swapped tile of 32-160 rows tile_load_cost ranks first."""
    return f"swap{min((32, 64) + WIDE, key=lambda r: (tile_load_cost(m, n, k, r, 128, sms), -r))}"


def small_weights(m, n, k, tile, sms=SMS, bound=None):
    """small_weights_swapped_tile: covering's `tile`, or where it is one tile alone on weights of at
    most SMALL_WEIGHTS elements (`bound`), load_ranked's tile."""
    if tile.endswith("c2") or n * k > (SMALL_WEIGHTS if bound is None else bound):
        return tile
    return load_ranked(m, n, k, sms)


def small_weights_paired(m, n, k, sms=SMS):
    """small_weights_paired_tile: at 161-320 rows of more than 128 columns on weights of at most
    SMALL_WEIGHTS elements, load_ranked's tile."""
    return load_ranked(m, n, k, sms) if 160 < m <= 320 and n > 128 and n * k <= SMALL_WEIGHTS else None


def pingpong_wide(m, entry):
    """pingpong_wide_tile: n256m64 at 65-128 rows where choose_gemm_tile (the sweep's `chosen`)
    takes n256c1."""
    return "n256m64" if 64 < m <= 128 and entry["chosen"] == "n256c1" else None


def paired(m, n, k=None, sms=SMS):
    """paired_swapped_tile; without k, as before it left weights past L2 at 161-256 rows to
    wide_token."""
    if m <= 160 or m > 320 or n <= 128 or (m <= 256 and 2 * cdiv(n, 128) > sms):
        return None
    if k is not None and m <= 256 and n * k >= WEIGHTS_PAST_L2:
        return None
    return next(f"swap{r}cn2" for r in PAIRED if 2 * r >= m)


def small_problem(m, n, k, sms=SMS):
    """small_problem_swapped_tile."""
    if m <= 160 or n <= 128 or cdiv(m, 128) * cdiv(n, 256) * 4 >= sms:
        return None
    rows = min((64, 80, 96, 112, 128), key=lambda r: (cdiv(m, r) * r, -r))
    return None if tile_load_cost(m, n, k, rows, 128, sms) > tile_load_cost(m, n, k, 128, 256, sms) else f"swap{rows}"


def wide_token(m, n, most_tiles=10):
    """wide_token_tile: the fewest tiles of at most 256 of C's rows holding m (at most `most_tiles`),
    as wide as they need in steps of 16 (swap176c2 to swap256c2)."""
    if m <= 128 or m > most_tiles * 256 or n <= 128:
        return None
    tiles = cdiv(m, 256)
    return f"swap{max(176, cdiv(cdiv(m, tiles), 16) * 16)}c2"


def fewest_waves(m, n, chosen, sms=SMS, with_n256=True):
    """fewest_waves_tile: `chosen` (a pair of 128-column tiles), the 2 x 2 clusters, the 256-column
    pairs or the 128 x 256 pairs along M, whichever leaves the least work a wave (waves of CTAs times
    the tile's area over its weight)."""
    rows = int(chosen[4:].split("c")[0])
    row_tiles, columns = cdiv(m, rows), cdiv(n, 128)
    even = lambda x: cdiv(x, 2) * 2  # noqa: E731
    ctas = even(row_tiles) * columns if chosen.endswith("cn2") else row_tiles * even(columns)
    options = [(chosen, ctas, rows * 128, 100, sms)]
    pairs = cdiv(m, 448)
    quad = min((r for r in (160, 192) if 2 * pairs * r >= m), default=224)
    ctas, resident = 2 * pairs * even(columns), sms - sms // 11
    if 2 * pairs * 128 < m:  # the clusters of 96 and 128 rows are not taken
        options.append((f"swap{quad}c2cn2", ctas, quad * 128, 120 if ctas * 10 >= resident * 7 else 90, resident))
    pairs = cdiv(m, 320)
    tall = 144 if 2 * pairs * 144 >= m else 160
    options.append((f"swap{tall}x256cn2", 2 * pairs * cdiv(n, 256), tall * 256, 115, sms))
    if with_n256:
        options.append(("n256", cdiv(m, 256) * 2 * cdiv(n, 256), 128 * 256, 110, sms))
    return min(options, key=lambda o: cdiv(o[1], o[4]) * o[2] * 100 // o[3])[0]


def rules(shape, entry, pairs=True, small=True, band=True):
    """choose_gemm_plan's tile for K-major operands (the heuristic's cut); choose_gemm_tile's own
    choice is the sweep's `chosen` line; `pairs` as covering's; without `small`, as before
    small_weights_swapped_tile; without `band`, as before the 161-320-row rules (small weights and
    weights past L2) and at small_weights 2^23."""
    m, n, k = shape
    if m <= SKINNY_DISPATCH_ROWS:
        return ("simt", "")
    tile = covering(m, n, k, pairs)
    if tile and small:
        tile = small_weights(m, n, k, tile, bound=None if band else 1 << 23)
    tile = tile or pingpong_wide(m, entry) or (small_weights_paired(m, n, k) if band else None)
    if tile:
        return (tile, "heuristic")
    small, pair = small_problem(m, n, k), paired(m, n, k if band else None)
    if pair:
        return (pair if small else fewest_waves(m, n, pair), "heuristic")
    wide = None if small else wide_token(m, n)
    return (small or (fewest_waves(m, n, wide) if wide else entry["chosen"]), "heuristic")


def rules_at_b123a17(shape, entry):
    """Variant: the rules before covering_swapped_tile paired its 144- and 160-row tiles (and before
    small_weights_swapped_tile)."""
    return rules(shape, entry, pairs=False, small=False, band=False)


def rules_at_f3d615d(shape, entry):
    """Variant: the rules before small_weights_swapped_tile (the covering tile on any weights)."""
    return rules(shape, entry, small=False, band=False)


def rules_at_14a6ba5(shape, entry):
    """Variant: the rules before small_weights_paired_tile and paired_swapped_tile's bound on the
    weights at 161-256 rows (small_weights 2^23)."""
    return rules(shape, entry, band=False)


def pairs_only(shape, entry):
    """Variant: the rules before fewest_waves_tile (the pairs and wide token tiles as chosen)."""
    m, n, k = shape
    if m <= SKINNY_DISPATCH_ROWS:
        return ("simt", "")
    return (covering(m, n) or paired(m, n) or small_problem(m, n, k) or wide_token(m, n, most_tiles=5) or entry["chosen"],
            "heuristic")


def narrow_by_load(shape, entry):
    """Variant: at 65-160 rows of at most 33 weight tiles, the swapped tile of 64-160 rows that
    tile_load_cost ranks first, not the one covering M (at 695a582's sweeps: narrow +1.2%; the
    rules at f3d615d otherwise)."""
    m, n, k = shape
    if 64 < m <= 160 and n > 128 and cdiv(n, 128) * 4 < SMS:
        rows = min((64,) + WIDE, key=lambda r: (tile_load_cost(m, n, k, r, 128), -r))
        return (f"swap{rows}", "heuristic")
    return rules_at_f3d615d(shape, entry)


def rules_at_532ff11(shape, entry):
    """Variant: the rules before the 128 x 256 pairs joined fewest_waves_tile's options,
    wide_token_tile reached 2560 rows (at most five tiles, 1280 rows), pingpong_wide_tile and
    covering_swapped_tile's bound on the weights."""
    m, n, k = shape
    if m <= SKINNY_DISPATCH_ROWS:
        return ("simt", "")
    if covering(m, n):
        return (covering(m, n), "heuristic")
    small, pair = small_problem(m, n, k), paired(m, n)
    if pair:
        return (pair if small else fewest_waves(m, n, pair, with_n256=False), "heuristic")
    wide = None if small else wide_token(m, n, most_tiles=5)
    return (small or (fewest_waves(m, n, wide, with_n256=False) if wide else entry["chosen"]), "heuristic")


VARIANTS = {"rules": rules, "rules at 14a6ba5": rules_at_14a6ba5, "pairs only": pairs_only, "narrow by load": narrow_by_load,
            "rules at 532ff11": rules_at_532ff11, "rules at b123a17": rules_at_b123a17,
            "rules at f3d615d": rules_at_f3d615d}


def ratios(shapes, choose):
    """cuBLASLt / ours for each shape whose choice the sweep measured."""
    out = []
    for shape, entry in shapes.items():
        us = time_of(entry, choose(shape, entry))
        if us != math.inf:
            out.append(entry["cublas"] / us)
    return out


def summary(name, values):
    if not values:
        return f"  {name:20s} (no shape measured its choices)"
    return f"  {name:20s} geomean {geomean(values):.3f}  min {min(values):.3f}  ({len(values)} shapes)"


def judge(label, shapes):
    print(f"{label}: {len(shapes)} shapes")
    for name, choose in VARIANTS.items():
        print(summary(name, ratios(shapes, choose)))
    print(summary("best measured", [e["cublas"] / min(e["times"].values()) for e in shapes.values()]))
    differ = sum(1 for s, e in shapes.items() if "dispatch" in e and rules(s, e)[0] != e["dispatch"][0])
    if differ:
        print(f"  the mirror differs from the sweep's dispatch lines on {differ} shapes (another commit's lines?)")


def main(argv):
    if len(argv) < 2 or argv[1] in ("-h", "--help"):
        sys.exit(__doc__)
    every = {}
    for path in argv[1:]:
        shapes = parse(path)[1]
        judge(Path(path).name, shapes)
        every.update(shapes)
    if len(argv) > 2:
        judge("all files", every)


if __name__ == "__main__":
    main(sys.argv)
