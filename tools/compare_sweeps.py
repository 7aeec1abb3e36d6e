#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Two runs of the GEMM model-shape sweep (bench_gemm --model-sweep's records) compared at the points
both measured, so that a dispatch change is judged where it acts and every drop is explained:
by band of C's rows, the geomean ratio to cuBLAS of each run, then the points whose choice stayed
(their drift says how much the runs differ: another board, another day) apart from those whose
choice changed (what the change did), and for the stayed points how far ours and the reference
each moved (a band that fell while ours held is the reference's doing); last, each change of
choice (old -> new tile) with its points and geomean gain.

    tools/compare_sweeps.py NEW OLD [--rows LO-HI]

NEW and OLD: a sweep's --json file or a gpu-check part file (a list of records or an object with
"records"), plain or gzipped, as bench/results keeps them."""
import argparse
import json
import sys
from collections import defaultdict

from fit_gemm_tiles import geomean, open_text
from gpu_check_report import ROW_BANDS  # the bands h200.md's sweep table uses


def load(path):
    """(kernel, shape, dtype) -> record of a model-shape sweep file (cold and warm, bf16 and fp16
    apart, as h200.json holds them side by side)."""
    with open_text(path) as f:
        data = json.load(f)
    records = data["records"] if isinstance(data, dict) else data
    return {(r["kernel"], r["shape"], r["dtype"]): r for r in records
            if r["kernel"].startswith("gemm model-shape sweep")}


def rows(point):
    return int(point[1].split(" x ")[0])


def compare(new, old, lo=1, hi=1 << 62):
    """The comparison's figures: per band (those with points) and per change of choice."""
    common = [s for s in new if s in old and lo <= rows(s) <= hi]
    bands = []
    for b_lo, b_hi in ROW_BANDS:
        at = [s for s in common if b_lo <= rows(s) <= b_hi]
        if not at:
            continue
        stayed = [s for s in at if new[s]["choice"] == old[s]["choice"]]
        changed = [s for s in at if new[s]["choice"] != old[s]["choice"]]
        bands.append({
            "rows": (b_lo, b_hi), "points": len(at),
            "old": geomean([old[s]["ratio"] for s in at]), "new": geomean([new[s]["ratio"] for s in at]),
            "stayed": (len(stayed), geomean([new[s]["ratio"] / old[s]["ratio"] for s in stayed])),
            "changed": (len(changed), geomean([new[s]["ratio"] / old[s]["ratio"] for s in changed])),
            "ours_moved": geomean([new[s]["ours"] / old[s]["ours"] for s in stayed]),
            "reference_moved": geomean([new[s]["reference_value"] / old[s]["reference_value"] for s in stayed]),
        })
    moves = defaultdict(list)
    for s in common:
        if new[s]["choice"] != old[s]["choice"]:
            moves[(old[s]["choice"], new[s]["choice"])].append(new[s]["ratio"] / old[s]["ratio"])
    overall = {"points": len(common), "old": geomean([old[s]["ratio"] for s in common]),
               "new": geomean([new[s]["ratio"] for s in common])}
    return overall, bands, {k: (len(v), geomean(v), min(v), max(v)) for k, v in moves.items()}


def report(overall, bands, moves):
    out = [f"{overall['points']} common points: old {overall['old']:.3f} -> new {overall['new']:.3f}",
           "rows         points  old    new    stayed (n, new/old)  changed (n, new/old)  stayed: ours, reference moved"]
    for b in bands:
        out.append(f"{b['rows'][0]:>5}-{b['rows'][1]:<6} {b['points']:>5}  {b['old']:.3f}  {b['new']:.3f}  "
                   f"{b['stayed'][0]:>5} {b['stayed'][1]:.3f}          {b['changed'][0]:>5} {b['changed'][1]:.3f}"
                   f"           {b['ours_moved']:.3f}, {b['reference_moved']:.3f}")
    out.append("changes of choice (old -> new: points, geomean new/old, min, max):")
    for (a, b), (n, g, lo, hi) in sorted(moves.items(), key=lambda kv: -kv[1][0]):
        out.append(f"  {a} -> {b}: {n}, {g:.3f} ({lo:.3f}-{hi:.3f})")
    return "\n".join(out)


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("new")
    ap.add_argument("old")
    ap.add_argument("--rows", default="", help="LO-HI: only the points of these rows of C")
    opts = ap.parse_args(argv[1:])
    lo, hi = (int(x) for x in opts.rows.split("-")) if opts.rows else (1, 1 << 62)
    new, old = load(opts.new), load(opts.old)
    if not any(s in old for s in new):
        sys.exit("compare_sweeps: the two files have no point in common")
    print(report(*compare(new, old, lo, hi)))


if __name__ == "__main__":
    main(sys.argv)
