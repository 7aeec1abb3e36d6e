#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Which figures of bench/results/h200.json moved beyond their run-to-run noise since the last
record, so that none falls unseen (scripts/gpu-check puts them in the report's first lines).

A figure is a record's `ours` (kernel, shape, dtype and reference name it); its change is relative and signed
so that positive is better (times in ms, s, us are better lower). Its noise is that of its group
(the kernel name's first word: "gemm_sm90", "qwen3", ...), measured by running the same binary
twice and comparing (`noise`), else DEFAULT_NOISE.

    tools/figure_moves.py noise FIRST.json SECOND.json > bench/results/noise.json
    tools/figure_moves.py compare NEW.json OLD.json [--noise bench/results/noise.json]
"""
import argparse
import json
import sys

LOWER_IS_BETTER = {"ms", "s", "us", "us/call (host)", "RTF"}  # RTF: wall seconds per second of audio
DEFAULT_NOISE = 0.05   # relative; where no measured noise is known for a group
NOISE_MARGIN = 1.5     # a measured group's noise: this times the largest change seen between two runs
NOISE_FLOOR = 0.01


# Kernels whose reference is whichever of several was faster in that run (the model-shape sweep's
# cublasGemmEx or one of cuBLASLt's algorithms): the reference's name is not part of the figure, and
# each such kernel (cold, warm) is its own noise group.
PER_RUN_REFERENCE = ("gemm model-shape sweep",)


def key(record):
    reference = "" if record["kernel"].startswith(PER_RUN_REFERENCE) else record.get("reference", "")
    return record["kernel"], record["shape"], record["dtype"], reference


def group(record):
    if record["kernel"].startswith(PER_RUN_REFERENCE):
        return record["kernel"]
    return record["kernel"].split()[0].rstrip(":")


def change(new, old):
    """The relative change of `ours` from old to new, positive when better; None when not comparable."""
    a, b = old.get("ours", 0), new.get("ours", 0)
    if not a or not b or new.get("unit") != old.get("unit"):
        return None
    return a / b - 1 if new.get("unit") in LOWER_IS_BETTER else b / a - 1


def noise_between(first, second):
    """Per group, NOISE_MARGIN times the largest |change| between two runs of the same binary
    (at least NOISE_FLOOR), with "default" the largest over groups."""
    earlier = {key(r): r for r in first}
    seen = {}
    for r in second:
        c = change(r, earlier[key(r)]) if key(r) in earlier else None
        if c is not None:
            seen[group(r)] = max(seen.get(group(r), 0.0), abs(c))
    noise = {g: max(NOISE_FLOOR, NOISE_MARGIN * c) for g, c in sorted(seen.items())}
    noise["default"] = max(noise.values(), default=DEFAULT_NOISE)
    return noise


def threshold(noise, record):
    return noise.get(group(record), noise.get("default", DEFAULT_NOISE))


def moves(new, old, noise):
    """[(record, last, change, threshold)] for each record of `new` measured at another commit
    than its last record in `old` whose figure moved by more than its group's noise; falls first."""
    last = {key(r): r for r in old}
    moved = []
    for r in new:
        before = last.get(key(r))
        if before is None or before.get("commit") == r.get("commit"):
            continue
        c = change(r, before)
        if c is not None and abs(c) > threshold(noise, r):
            moved.append((r, before, c, threshold(noise, r)))
    return sorted(moved, key=lambda m: m[2])


def summary(moved, part_of):
    """The report's lines: the parts with a figure that fell (first), then each moved figure."""
    fell = [m for m in moved if m[2] < 0]
    parts = {}
    for r, _, _, _ in fell:
        parts[part_of(r)] = parts.get(part_of(r), 0) + 1
    lines = ["- regressions beyond noise: " + (", ".join(f"{p} ({n})" for p, n in sorted(parts.items())) if parts
                                                else "none since the last record")]
    if moved:
        lines += ["", "## Moved beyond noise since the last record", "",
                  "| part | kernel | shape | dtype | last (commit) | now (commit) | change | noise |", "|---|---|---|---|---|---|---|---|"]
        lines += [f"| {part_of(r)} | {r['kernel']} | {r['shape']} | {r['dtype']} | {b['ours']:.4g} {r['unit']} ({b.get('commit', '?')}) | "
                  f"{r['ours']:.4g} ({r.get('commit', '?')}) | {100 * c:+.1f}% | {100 * t:.1f}% |" for r, b, c, t in moved]
    return lines


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="command", required=True)
    n = sub.add_parser("noise", help="the noise between two runs of the same binary, as JSON")
    n.add_argument("first")
    n.add_argument("second")
    c = sub.add_parser("compare", help="the figures of NEW that moved beyond noise since OLD")
    c.add_argument("new")
    c.add_argument("old")
    c.add_argument("--noise", help="a noise file (the noise command's output)")
    opts = ap.parse_args()
    if opts.command == "noise":
        first, second = (json.load(open(p)) for p in (opts.first, opts.second))
        print(json.dumps(noise_between(first, second), indent=1))
        return 0
    noise = json.load(open(opts.noise)) if opts.noise else {}
    moved = moves(json.load(open(opts.new)), json.load(open(opts.old)), noise)
    print("\n".join(summary(moved, group)))
    return 1 if any(m[2] < 0 for m in moved) else 0


if __name__ == "__main__":
    sys.exit(main())
