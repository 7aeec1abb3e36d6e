#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Fits the GEMM's tile table (kernels/gemm/gemm_tile_table.hpp) to a candidate sweep
(`bench_gemm --candidate-sweep`: every tile under every cut, timed cold, on the shape sweep's
shapes) and reports how the table's choice does against cuBLASLt beside the hand-written
heuristic's (choose_gemm_tile with its own cut) and the best measured, each shape predicted
with itself left out of the table (leave-one-out): the figure a shape nobody measured can expect.

The table is a nearest-neighbour model: per measured shape, log2 of M, N and K and the set of
choices (tile and cut) within `GOOD` of that shape's fastest. A shape takes the choice that is
good on the most of its NEIGHBOURS nearest measured shapes, each counted by closeness; at most 64
choices are kept (the C++ side holds a good set as a 64-bit mask).
Standard library only.

    tools/fit_gemm_tiles.py CANDIDATES...                  the report
    tools/fit_gemm_tiles.py CANDIDATES... --write COMMIT   also write the table (measured at COMMIT)

CANDIDATES: one or more files holding the sweep's lines (its output, or the logs of scripts/gpu-check's
gemm-candidates-model-* parts, whose other lines are skipped); a shape measured in two is taken from
the last."""
import gzip
import math
import random
import struct
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TABLE = ROOT / "kernels/gemm/gemm_tile_table.hpp"
GOOD = 1.05
NEIGHBOURS = 4  # 2-8 neighbours and 1.02-1.12 for GOOD fit the first sweep within 0.005 of geomean
SKINNY = 8  # SimtGemmTile::skinny_rows
TILES = ["n256", "n128", "n64", "n256c1", "n128c1", "n112cn2", "n64c1", "n256m64", "n256cn2", "swap16", "swap32",
         "swap64", "swap80", "swap96", "swap112", "swap128", "swap144", "swap160", "swap96cn2", "swap112cn2",
         "swap128cn2", "swap144cn2", "swap160cn2", "swap128c2", "swap144c2", "swap160c2", "swap176c2", "swap192c2",
         "swap208c2", "swap224c2", "swap240c2", "swap256c2", "swap144x256cn2", "swap160x256cn2", "swap144x256c2",
         "swap160x256c2", "swap96c2cn2", "swap128c2cn2", "swap160c2cn2", "swap192c2cn2", "swap224c2cn2", "simt"]


def open_text(path):
    """A text file, read through gzip where its name ends in .gz (bench/results keeps them so)."""
    return (gzip.open if str(path).endswith(".gz") else open)(path, "rt")


def geomean(values):
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else float("nan")


def parse(path):
    """shape -> {"cublas": us, "chosen": tile, "dispatch": choice, "times": {choice: us}}; a choice
    is (tile, cut), cut "" (whole tiles), "heuristic", "stream-K" or "split N"; a file ending in .gz
    is read through gzip (bench/results keeps them so). A sweep cut short
    (a time limit) ends in a partial line: the shape then measured, whose candidates stopped part
    way, is left out."""
    shapes = {}
    floor = None
    with open_text(path) as f:
        lines = f.read().splitlines()
    cut_short = bool(lines) and not complete(lines[-1].split())
    for line in lines[:-1] if cut_short else lines:
        words = line.split()
        if not words:
            continue
        if words[0] == "floor":
            floor = float(words[1])
        elif words[0] in ("cublas", "chosen", "dispatch", "candidate"):
            shape = tuple(int(w) for w in words[1:4])
            entry = shapes.setdefault(shape, {"times": {}})
            if words[0] == "cublas":
                entry["cublas"] = float(words[4])
            elif words[0] == "chosen":
                entry["chosen"] = words[4]
            elif words[0] == "dispatch":
                entry["dispatch"] = dispatch_candidate(words[4:])
            else:
                entry["times"][(words[4], " ".join(words[5:-1]))] = float(words[-1])
    if cut_short:  # the shape being measured then: that of the last whole line naming one
        named = [w for w in (line.split() for line in lines[:-1]) if w and w[0] in ("cublas", "chosen", "dispatch",
                                                                                   "candidate")]
        if named:
            shapes.pop(tuple(int(w) for w in named[-1][1:4]), None)
    return floor, {s: e for s, e in shapes.items() if "cublas" in e and e["times"]}


def complete(words):
    """Whether a sweep line holds all its words: a time ends a cublas/candidate/floor line."""
    if not words or words[0] not in ("floor", "cublas", "chosen", "dispatch", "candidate"):
        return True
    if words[0] in ("chosen", "dispatch"):
        return len(words) >= 5
    try:
        float(words[-1])
    except ValueError:
        return False
    return len(words) >= (2 if words[0] == "floor" else 5)


def dispatch_candidate(words):
    """choose_gemm_plan's choice as the candidate that ran it: a bare tile under the heuristic's
    cut ("n256" -> n256 heuristic), "T whole" as whole tiles, a named cut as itself."""
    if len(words) == 1:
        return (words[0], "heuristic")
    cut = " ".join(words[1:])
    return (words[0], "" if cut == "whole" else cut)


def point(shape):
    return tuple(math.log2(v) for v in shape)


def good_set(entry):
    best = min(entry["times"].values())
    return {c for c, us in entry["times"].items() if us <= GOOD * best}


def keep_most(table, most=64):
    """`table` with its good sets cut to at most `most` choices (what choose_from_table's 64-bit
    mask holds): first a set that leaves every shape a good choice (greedy, the choice good on most
    shapes not yet served first; cut at `most`), then those good on the most shapes."""
    count = {}
    for g in table.values():
        for c in g:
            count[c] = count.get(c, 0) + 1
    kept, unserved = [], set(table)
    while unserved:
        c = max(count, key=lambda c: (sum(c in table[s] for s in unserved), count[c], c))
        kept.append(c)
        unserved = {s for s in unserved if c not in table[s]}
    kept = kept[:most]  # past `most`, the shapes served last lose their good choices
    kept += sorted((c for c in count if c not in kept), key=lambda c: (-count[c], c))[: most - len(kept)]
    return {s: {c for c in g if c in kept} for s, g in table.items()}


def ordered_choices(table):
    """Every choice good somewhere, in the table's order (ties go to the earlier)."""
    return sorted({c for g in table.values() for c in g}, key=lambda c: (TILES.index(c[0]), c[1]))


def predict(shape, table, choices, at=point):
    """The choice for `shape` from `table` (shape -> good set), as choose_from_table makes it: the
    one good on the most of the nearest measured shapes, each counted by 1 / (distance + 0.5),
    the nearer first among equals, the earlier choice among equal counts; None where no allowed
    choice was good on any of them (the hand-written heuristic's then). SIMT stands for its
    skinny kernel, so only M or N of at most SKINNY may take it (the table is fitted to K-major
    operands, for which that kernel is built). `at`: a measured shape's point (log2 of M, N, K)."""
    here = point(shape)
    near = sorted(table, key=lambda s: math.dist(here, at(s)))[:NEIGHBOURS]
    votes = [0.0] * len(choices)
    for rank, s in enumerate(near):
        weight = 1.0 / (math.dist(here, at(s)) + 0.5) + 1e-6 * (NEIGHBOURS - rank)
        for i, choice in enumerate(choices):
            if choice in table[s]:
                votes[i] += weight
    allowed = [i for i, c in enumerate(choices) if votes[i] > 0 and (c[0] != "simt" or min(shape[:2]) <= SKINNY)]
    return choices[max(allowed, key=lambda i: (votes[i], -i))] if allowed else None


def time_of(entry, choice):
    """The measured time of `choice`, or, where the shape did not take it (a split count past its
    K blocks), that tile's time under the heuristic's cut."""
    return entry["times"].get(choice, entry["times"].get((choice[0], "heuristic"), math.inf))


def summary(name, ratios):
    return f"{name:34s} geomean {geomean(ratios):.3f}  min {min(ratios):.3f}  below 0.90: {sum(r < 0.9 for r in ratios)}"


def main(argv):
    if len(argv) < 2 or argv[1] in ("-h", "--help"):
        sys.exit(__doc__)
    files = argv[1:argv.index("--write")] if "--write" in argv else argv[1:]
    if not files:
        sys.exit(__doc__)
    floor, shapes = None, {}
    for path in files:
        file_floor, file_shapes = parse(path)
        floor = floor if floor is not None else file_floor
        shapes.update(file_shapes)
    table = keep_most({s: good_set(e) for s, e in shapes.items()})
    choices = ordered_choices(table)
    rows = []
    for s, e in shapes.items():
        rest = {t: g for t, g in table.items() if t != s}
        choice = predict(s, rest, choices) or (e.get("chosen", "n256"), "heuristic")
        heuristic = time_of(e, (e.get("chosen", "n256"), "heuristic"))
        best = min(e["times"].values())
        rows.append((s, e["cublas"] / time_of(e, choice), e["cublas"] / heuristic, e["cublas"] / best, choice))
    print(f"{len(shapes)} shapes; an empty kernel takes {floor} us")
    print(summary("table, leave-one-out", [r[1] for r in rows]))
    print(summary("hand-written heuristic", [r[2] for r in rows]))
    dispatched = [e["cublas"] / time_of(e, e["dispatch"]) for e in shapes.values() if "dispatch" in e]
    if dispatched:  # sweeps since the dispatch line: what run_gemm_auto takes
        print(summary(f"dispatch (choose_gemm_plan, {len(dispatched)})", dispatched))
    print(summary("best measured", [r[3] for r in rows]))
    print("worst (table, left out): shape  table  heuristic  best  choice")
    for s, t, h, b, c in sorted(rows, key=lambda r: r[1])[:25]:
        print(f"  {'x'.join(map(str, s)):18s} {t:.3f} {h:.3f} {b:.3f}  {c[0]} {c[1]}")
    if "--write" in argv:
        write_table(table, argv[argv.index("--write") + 1])


def stored(value):
    """`value` as the table stores it: 4 decimals, then a float."""
    return struct.unpack("f", struct.pack("f", float(f"{value:.4f}")))[0]


def probes(table, choices, count=32):
    """Shapes off the table (seeded, log-uniform in 1..32768, a quarter of them skinny) with the
    choice predict makes for them from the stored table: choose_from_table must make the same
    (tests/cpu/cute_cpp/gemm_tile_test.cpp), or None where it has none."""
    rng = random.Random(20)
    at = lambda s: tuple(stored(v) for v in point(s))
    out = []
    for i in range(count):
        m, n, k = (int(2 ** rng.uniform(0, 15)) for _ in range(3))
        if i % 4 == 0:
            m = rng.randint(1, SKINNY)
        out.append(((m, n, k), predict((m, n, k), table, choices, at)))
    return out


def write_table(table, commit):
    choices = ordered_choices(table)
    if len(choices) > 64:
        sys.exit(f"{len(choices)} choices: more than a 64-bit mask holds")
    def cut(c):
        if c == "":
            return "Decomposition::DataParallel, 0"
        if c == "heuristic":
            return "Decomposition::Heuristic, 0"
        if c == "stream-K":
            return "Decomposition::StreamK, 0"
        return f"Decomposition::SplitK, {int(c.split()[1])}"
    lines = [
        "// SPDX-License-Identifier: Apache-2.0",
        "// SPDX-FileCopyrightText: 2026 cute-cpp authors",
        "#pragma once",
        f"// Written by tools/fit_gemm_tiles.py from bench_gemm --candidate-sweep on the H200 at {commit}: do not edit.",
        "// Per measured shape, log2 of M, N and K and the mask of the choices (gemm_tile_choices) that ran",
        f"// within {GOOD:.2f}x of its fastest; choose_from_table takes the choice good on most of the",
        f"// {NEIGHBOURS} nearest. The dispatch (choose_gemm_plan) does not ask it: a refit is judged against its rules.",
        '#include "gemm.hpp"',
        "",
        "#include <cstdint>",
        "",
        "namespace cute_cpp::kernels {",
        "",
        f"inline constexpr int gemm_table_neighbours = {NEIGHBOURS};",
        "inline constexpr int gemm_table_sms = 132;  ///< the H200's, where the table was measured",
        "",
        "inline constexpr GemmChoice gemm_tile_choices[] = {",
    ]
    lines += [f"    {{GemmTile::{t}, {cut(c)}}}," for t, c in choices]
    lines += ["};", "", "inline constexpr GemmTableShape gemm_tile_table[] = {"]
    for s in sorted(table):
        mask = sum(1 << choices.index(c) for c in table[s])
        m, n, k = (math.log2(v) for v in s)
        lines.append(f"    {{{m:.4f}f, {n:.4f}f, {k:.4f}f, 0x{mask:x}ull}},  // {s[0]}x{s[1]}x{s[2]}")
    lines += ["};", "", "/// Shapes off the table and the choice the fitting tool predicts for each (-1: none), which",
              "/// choose_from_table must reproduce.", "inline constexpr GemmTableProbe gemm_table_probes[] = {"]
    for (m, n, k), c in probes(table, choices):
        lines.append(f"    {{{m}, {n}, {k}, {-1 if c is None else choices.index(c)}}},")
    lines += ["};", "", "}  // namespace cute_cpp::kernels", ""]
    TABLE.write_text("\n".join(lines))
    print(f"wrote {TABLE.relative_to(ROOT)}: {len(table)} shapes, {len(choices)} choices")


if __name__ == "__main__":
    main(sys.argv)
