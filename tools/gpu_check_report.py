#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""scripts/gpu-check's report: h200.md (the parts, the checks, every figure, the GEMM sweeps'
summaries and the figures that moved beyond their noise since the last record) and h200.json (every
record) from the files the parts wrote. Standard library only."""
import json
import math
import sys

import figure_moves  # which figures moved beyond their noise since the last record


def geomean_ratio(records):
    """The geometric mean of the records' ratios."""
    return math.exp(sum(math.log(r["ratio"]) for r in records) / len(records))


def figure(value):
    """A figure with the digits that matter: 1234.5, 12.35, 0.9998."""
    return f"{value:.1f}" if abs(value) >= 100 else f"{value:.4g}"


def sweep_summary(sweep):
    """The GEMM shape sweep in h200.md: per tile choice (the heuristic's, the tuner's), cold and warm
    L2, the geomean and minimum ratio and the ten worst shapes; every shape's record is in
    h200.json."""
    if not sweep:
        return []
    md = ["", "## GEMM shape sweep (bench_gemm --shape-sweep; every shape in h200.json)", "",
          "| tiles | shapes | geomean vs cuBLASLt | minimum | below 0.90 | ten worst (shape, tile, ratio) |",
          "|---|---|---|---|---|---|"]
    # Each element type and layout apart: bf16 K-major (KK) on every shape, the others on a subset.
    kinds = sorted({(r["dtype"], r["shape"].split()[-1]) for r in sweep}, key=lambda k: (k != ("bf16", "KK"), k))
    for label, prefix in (("heuristic", "gemm_sm90 auto: "), ("tuned (CUTE_CPP_TUNE=1)", "gemm_sm90 tuned: "),
                          ("heuristic, warm L2", "gemm_sm90 auto warm: "),
                          ("tuned, warm L2", "gemm_sm90 tuned warm: ")):
        for dtype, layout in kinds:
            rows = sorted((r for r in sweep if r["kernel"].startswith(prefix) and r["dtype"] == dtype and
                           r["shape"].split()[-1] == layout), key=lambda r: r["ratio"])
            if not rows:
                continue
            geomean = geomean_ratio(rows)
            worst = "; ".join(f"{r['shape']} {r['kernel'][len(prefix):]} {r['ratio']:.3f}" for r in rows[:10])
            md.append(f"| {label}, {dtype} {layout} | {len(rows)} | {geomean:.3f} | {rows[0]['ratio']:.3f} | "
                      f"{sum(r['ratio'] < 0.9 for r in rows)} | {worst} |")
    return md


def model_sweep_summary(model):
    """The model-shape sweep in h200.md (issue 43): cold and warm, per element type and layout and
    over all of them, for every point and for the held-out half alone (the dispatch is fitted on
    the other), the geomean and minimum ratio to the faster reference, the count under 0.95 and
    the ten worst points; every point's record is in h200.json."""
    if not model:
        return []
    md = ["", "## GEMM model-shape sweep (bench_gemm --model-sweep; every point in h200.json)", "",
          "Goals: geomean >= 1.0 and every point >= 0.95 against the faster of cublasGemmEx and cuBLASLt's best of 8.", "",
          "| L2 | dtype, layout | half | points | geomean | minimum | under 0.95 | ten worst (shape, reference, ratio, "
          "the dispatch's choice) |",
          "|---|---|---|---|---|---|---|---|"]
    layout = lambda r: r["shape"].split(" (")[0].split()[-1]
    kinds = sorted({(r["dtype"], layout(r)) for r in model}, key=lambda k: (k[1] != "KK", k))
    for label, kernel in (("cold", "gemm model-shape sweep"), ("warm", "gemm model-shape sweep warm")):
        for kind in [None] + kinds:
            for half in ("all", "held-out"):
                rows = sorted((r for r in model if r["kernel"] == kernel and (kind is None or (r["dtype"], layout(r)) == kind)
                               and (half == "all" or r.get("half") == half)), key=lambda r: r["ratio"])
                if not rows:
                    continue
                geomean = geomean_ratio(rows)
                worst = "; ".join(f"{r['shape']} {r['dtype']} {r['reference']} {r['ratio']:.3f}"
                                  + (f" ({r['choice']})" if r.get("choice") else "") for r in rows[:10])
                md.append(f"| {label} | {'all' if kind is None else ' '.join(kind)} | {half} | {len(rows)} | "
                          f"{geomean:.3f} | {rows[0]['ratio']:.3f} | {sum(r['ratio'] < 0.95 for r in rows)} | {worst} |")
    return md + model_sweep_bands(model)


# The model-shape sweep's row bands: the dispatch's rules change at these row counts (the skinny and
# swapped tiles to 160, their pairs to 320, the wide token tiles to 1280), so a rule's effect shows in one.
ROW_BANDS = ((1, 16), (17, 64), (65, 160), (161, 320), (321, 640), (641, 1280), (1281, 2560), (2561, 5120),
             (5121, 16384))


def model_sweep_bands(model):
    """The geomean ratio of the sweep's points by rows of C (ROW_BANDS), cold and warm, over every
    element type and layout measured: where a change of the dispatch moved the sweep."""
    rows_of = lambda r: int(r["shape"].split(" x ")[0])
    bands = " | ".join(f"{low}-{high}" for low, high in ROW_BANDS)
    md = ["", "By rows of C (geomean ratio, points):", "", f"| L2 | {bands} |", "|---|" + "---|" * len(ROW_BANDS)]
    for label, kernel in (("cold", "gemm model-shape sweep"), ("warm", "gemm model-shape sweep warm")):
        cells = []
        for low, high in ROW_BANDS:
            band = [r for r in model if r["kernel"] == kernel and low <= rows_of(r) <= high]
            cells.append(f"{geomean_ratio(band):.3f} ({len(band)})" if band else "")
        if any(cells):
            md.append(f"| {label} | " + " | ".join(cells) + " |")
    return md


def write_report(out, part_names):
    """h200.md and h200.json from every part's file in `out` (gpu-check-<part>.json, in the order of
    `part_names`); each part keeps the commit, date and GPU it ran at (parts run as separate commands
    may run at different commits). Returns whether every check passed."""
    parts = []
    for part in part_names:
        state = out / f"gpu-check-{part}.json"
        if state.exists():
            parts.append((part, json.loads(state.read_text())))
    if not parts:
        sys.exit(f"gpu-check: no part's results in {out}")
    checks, records, sweep, model, part_of = [], [], [], [], {}
    for part, got in parts:
        checks += [tuple(c) for c in got["checks"]]
        for r in got["records"]:
            # A record of a part run in pieces (bench --only) keeps its own commit and date.
            record = dict({"commit": got.get("commit", "unknown"), "date": got.get("date", "unknown")}, **r)
            (sweep if part.startswith("gemm-sweep") else model if part.startswith("gemm-model-sweep")
             else records).append(record)
            part_of[figure_moves.key(record)] = part
    # The last record (the committed h200.json) against this one: what moved beyond its noise.
    last = json.loads((out / "h200.json").read_text()) if (out / "h200.json").exists() else []
    noise = json.loads((out / "noise.json").read_text()) if (out / "noise.json").exists() else {}
    moved = figure_moves.moves(records + sweep + model, last, noise)
    (out / "h200.json").write_text(json.dumps(records + sweep + model, indent=1) + "\n")
    gpu = parts[-1][1].get("gpu") or {}
    commits = sorted({got.get("commit", "unknown") for _, got in parts})
    dates = sorted({got.get("date", "unknown") for _, got in parts})
    not_run = [name for name, ok in checks if ok is None]
    md = [f"# cute-cpp on the {gpu.get('name', 'NVIDIA H200').removeprefix('NVIDIA ')}", "",
          *figure_moves.summary(moved, lambda r: part_of.get(figure_moves.key(r), "?"))[:1],
          *([f"- not run here (needs more GPUs than this machine has): {', '.join(not_run)}"] if not_run else []),
          f"- date: {', '.join(dates)}", f"- commit: {', '.join(commits)} (each part's below)",
          f"- GPU: {gpu.get('name', '?')} (compute capability {gpu.get('compute_cap', '?')}), driver {gpu.get('driver', '?')}",
          f"- clocks when read: SM {gpu.get('clock_sm', '?')} (max {gpu.get('clock_sm_max', '?')}), memory "
          f"{gpu.get('clock_mem', '?')}",
          "- method: fresh random data each run, outputs poisoned, every element checked; timings are the "
          "median of 50 CUDA-event timings after 10 warm-up runs, ours and the reference timed alternately in the same run, "
          "each call starting with L2 flushed (neither side reads what the other just loaded) and queued behind a spin "
          "kernel so that host launch overhead is not timed (GPU time); "
          "ratio = ours / reference (higher is better)", "",
          "## Parts", "", "| part | commit | date | seconds |", "|---|---|---|---|"]
    def measured(got, key):  # a part run in pieces (bench --only) holds records of several commits
        return ", ".join(sorted({r.get(key) or got.get(key, "unknown") for r in got["records"]} |
                                {got.get(key, "unknown")}))
    md += [f"| {part} | {measured(got, 'commit')} | {measured(got, 'date')} | {got.get('seconds', '')} |"
           for part, got in parts]
    md += figure_moves.summary(moved, lambda r: part_of.get(figure_moves.key(r), "?"))[1:]
    md += ["", "## Checks", "", "| check | result |", "|---|---|"]
    md += [f"| {name} | {'not run' if ok is None else 'pass' if ok else 'FAIL'} |" for name, ok in checks]
    md += ["", "## Figures", "", "| kernel | shape | dtype | ours | reference | reference value | unit | ratio | time (us) |",
           "|---|---|---|---|---|---|---|---|---|"]
    md += [f"| {r['kernel']} | {r['shape']} | {r['dtype']} | {figure(r['ours'])} | {r['reference']} | "
           f"{figure(r['reference_value'])} | {r['unit']} | {r['ratio']:.3f} | {r['microseconds']:.1f} |" for r in records]
    md += sweep_summary(sweep)
    md += model_sweep_summary(model)
    (out / "h200.md").write_text("\n".join(md) + "\n")
    print("\n".join(md))
    # A check not run (None) is no failure; it is named at the top of the report.
    return bool(checks) and all(ok is not False for _, ok in checks)
