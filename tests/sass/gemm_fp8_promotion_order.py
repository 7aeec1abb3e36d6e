#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Checks the SASS of the promoting FP8 GEMM kernels (kernels/gemm: block-scaled, issue 44's main
loops, and two-level accumulation) in a binary that links them, for what a regex per kernel cannot
say:

  - overlap_promotion: the K block's promotion sits between the next K block's QGMMAs and their
    wait: after a `WARPGROUP.DEPBAR.LE gsb0, 0x1` (the previous group retired, this one in flight)
    come at least block_n / 2 FFMAs (a two-level plan's: FADDs, no scales) before the next QGMMA or
    WARPGROUP wait, at least twice (the loop is unrolled by two product sets); ptxas did not hoist
    or serialise them;
  - staged_scales: the scale warp's cp.async copies (LDGSTS) and their barrier arrivals
    (ARRIVES.LDGSTSBAR), and the consumers read the scales with LDS (ld.shared: through the generic
    SharedStorage reference nvcc emitted 64-bit generic loads, LD.E);
  - every promoting kernel: no local memory (LDL / STL).

    gemm_fp8_promotion_order.py CUOBJDUMP BINARY [--report]

--report prints per kernel: tile, options, QGMMA / FFMA / LDS / LDGSTS / LDG counts, and the
FFMAs (FADDs) after each DEPBAR.LE 1."""
import re
import subprocess
import sys
from pathlib import Path

# GemmConfig's mangled values: block_m, block_n, block_k, stages, cluster_m, cluster_n, ..., then
# the bools block_scaled, grouped, overlap_promotion, staged_scales, two_level_accumulation.
CONFIG = re.compile(r"GemmConfigELi(\d+)ELi(\d+)ELi(\d+)ELi(\d+)ELi(\d+)ELi(\d+)E.*?KernelScheduleE\d"
                    r"ELb([01])ELb([01])ELb([01])ELb([01])ELb([01])E")
INSTRUCTION = re.compile(r"^\s+/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;")


def functions(sass):
    for part in re.split(r"\n\s+Function : ", sass)[1:]:
        name = part.split("\n", 1)[0].strip()
        # `@!PT` instructions never run (ptxas' padding).
        body = [m.group(2) for m in map(INSTRUCTION.match, part.split("\n")) if m and not m.group(2).startswith("@!PT")]
        yield name, body


def ffma_runs(body, promotion="FFMA"):
    """The promotion's instructions (FFMA, or FADD) after each `WARPGROUP.DEPBAR.LE gsb0, 0x1`, up to
    the next QGMMA or WARPGROUP op."""
    runs = []
    for i, ins in enumerate(body):
        if not ins.startswith("WARPGROUP.DEPBAR.LE gsb0, 0x1"):
            continue
        count = 0
        for nxt in body[i + 1:]:
            op = nxt.split()[0] if not nxt.startswith("@") else nxt.split()[1]
            if op.startswith("QGMMA") or op.startswith("WARPGROUP"):
                break
            count += op.startswith(promotion)
        runs.append(count)
    return runs


def main():
    if len(sys.argv) < 3:
        print(__doc__)
        return 2
    cuobjdump, binary, report = sys.argv[1], sys.argv[2], "--report" in sys.argv[3:]
    tools = str(Path(cuobjdump).parent)
    env = {"PATH": tools + ":/usr/bin:/bin"}
    sass = subprocess.run([cuobjdump, "-sass", binary], capture_output=True, text=True, env=env).stdout
    failures, seen = [], 0
    for name, body in functions(sass):
        m = CONFIG.search(name)
        if not m or "gemm_kernel" not in name or (m.group(7) != "1" and m.group(11) != "1"):
            continue
        seen += 1
        block_n, stages = int(m.group(2)), int(m.group(4))
        overlap, staged, two_level = m.group(9) == "1", m.group(10) == "1", m.group(11) == "1"
        promotion = "FADD" if two_level else "FFMA"
        label = f"128x{block_n} {stages} stages{' grouped' if m.group(8) == '1' else ''}" \
                f"{' two-level' if two_level else ''}{' overlap' if overlap else ''}{' staged' if staged else ''}"
        ops = [ins.split()[1] if ins.startswith("@") else ins.split()[0] for ins in body]
        count = lambda prefix: sum(op.startswith(prefix) for op in ops)
        runs = ffma_runs(body, promotion)
        if any(op in ("LDL", "STL") or op.startswith(("LDL.", "STL.")) for op in ops):
            failures.append(f"{label}: local memory (LDL/STL)")
        if overlap and sum(r >= block_n // 2 for r in runs) < 2:
            failures.append(f"{label}: fewer than two runs of {block_n // 2} {promotion}s after DEPBAR.LE 1 ({runs})")
        if staged and (count("LDGSTS") == 0 or count("ARRIVES.LDGSTSBAR") == 0):
            failures.append(f"{label}: no LDGSTS / ARRIVES.LDGSTSBAR (the scale warp)")
        if staged and count("LDS") == 0:
            failures.append(f"{label}: no LDS: the staged scales are read from shared memory")
        if report:
            print(f"{label:36s} QGMMA {count('QGMMA'):3d} FFMA {count('FFMA'):4d} "
                  f"LDS {count('LDS'):3d} LDGSTS {count('LDGSTS'):2d} LDG {count('LDG.'):2d} "
                  f"FADD {count('FADD'):4d} DEPBAR.LE1->{promotion} {runs}")
    if seen == 0:
        failures.append("no block-scaled or two-level gemm_kernel in the binary")
    for f in failures:
        print("cute-cpp [build.sass]: " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
