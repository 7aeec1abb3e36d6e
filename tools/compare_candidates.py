#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Two candidate sweeps of the same shapes (bench_gemm --candidate-sweep, e.g. two builds of one
kernel: a main-loop change, a stage count, a barrier wait) compared candidate by candidate: each
candidate's ratio to its own run's cuBLASLt in B over the same in A, so the runs' drift cancels
(cuBLASLt's own move is printed beside). The geomean over all candidates both measured, by tile
(worst first) and by M, and the dispatch's candidate alone.

    tools/compare_candidates.py A B [--tiles NAME,...]

A and B: the sweeps' output, plain or gzipped (tools/fit_gemm_tiles.py's parse). Above 1: B faster."""
import argparse
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from fit_gemm_tiles import geomean, parse  # noqa: E402


def compare(a, b, tiles=None):
    """{"all", "dispatch", "cublas": geomean, "by_tile", "by_m": {key: (geomean, count)}} of B's
    candidates against A's (shape -> entry, as parse gives them)."""
    every, dispatch, cublas = [], [], []
    by_tile, by_m = defaultdict(list), defaultdict(list)
    for shape, ea in a.items():
        eb = b.get(shape)
        if eb is None:
            continue
        cublas.append(eb["cublas"] / ea["cublas"])
        for choice, us_a in ea["times"].items():
            us_b = eb["times"].get(choice)
            if us_b is None or (tiles and choice[0] not in tiles):
                continue
            gain = (eb["cublas"] / us_b) / (ea["cublas"] / us_a)
            every.append(gain)
            by_tile[choice[0]].append(gain)
            by_m[shape[0]].append(gain)
            if choice == ea.get("dispatch"):
                dispatch.append(gain)
    summary = lambda groups: {k: (geomean(v), len(v)) for k, v in groups.items()}
    return {"all": (geomean(every), len(every)), "dispatch": (geomean(dispatch), len(dispatch)),
            "cublas": geomean(cublas), "by_tile": summary(by_tile), "by_m": summary(by_m)}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("a")
    parser.add_argument("b")
    parser.add_argument("--tiles", help="NAME,...: only these tiles' candidates")
    args = parser.parse_args()
    _, a = parse(args.a)
    _, b = parse(args.b)
    tiles = set(args.tiles.split(",")) if args.tiles else None
    r = compare(a, b, tiles)
    print(f"B / A over {r['all'][1]} candidates: {r['all'][0]:.3f}; the dispatch's ({r['dispatch'][1]}): "
          f"{r['dispatch'][0]:.3f}; cuBLASLt's time B / A {r['cublas']:.3f}")
    print("by tile, worst first: " + ", ".join(f"{t} {g:.3f}" for t, (g, _) in
                                                sorted(r["by_tile"].items(), key=lambda x: x[1][0])))
    print("by M: " + ", ".join(f"{m} {g:.3f}" for m, (g, _) in sorted(r["by_m"].items())))


if __name__ == "__main__":
    main()
