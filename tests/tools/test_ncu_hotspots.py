#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""scripts/ncu-hotspots' reading of ncu's source page CSV (a kernel line, a header with the stall
columns and their Not Issued twins, a row an instruction, samples with thousands separators) and its
summary: reasons' shares, samples per 4 KB of code, the instructions with the most samples after the
ones before them."""
import importlib.machinery
import importlib.util
import sys
from pathlib import Path

path = Path(__file__).resolve().parents[2] / "scripts/ncu-hotspots"
loader = importlib.machinery.SourceFileLoader("ncu_hotspots", str(path))
spec = importlib.util.spec_from_loader("ncu_hotspots", loader)
ncu = importlib.util.module_from_spec(spec)
loader.exec_module(ncu)

KERNEL = '"Kernel Name","void fused_step_kernel<(int)128>(FusedStepParams)",'
HEADER = ('"Address","Source","Warp Stall Sampling (All Samples)","Warp Stall Sampling (Not-issued Samples)",'
          '"# Samples","stall_barrier","stall_long_sb","stall_barrier (Not Issued)","stall_long_sb (Not Issued)"')


def row(address, text, samples, barrier, long_sb):
    return f'"{address:#x}","{text}","{samples}","0","0","{barrier}","{long_sb}","0","0"'


def main():
    base = 0x7F00000000
    lines = [KERNEL, HEADER,
             row(base, "LDC R1, c[0x0][0x28]", "2", 0, 0),
             row(base + 0x10, "BAR.SYNC.DEFER_BLOCKING 0x1, 0x100", "8", 8, 0),
             row(base + 0x20, "@P0 BRA 0x7f00001000", "1,200", 1200, 0),
             row(base + 0x1000, "SYNCS.PHASECHK.TRANS64.TRYWAIT P6, [R41+URZ], R36", "10", 0, 0),
             row(base + 0x1010, "@!P6 BRA 0x7f00001000", "780", 0, 780)]
    kernel, code = ncu.read_source(lines)
    assert kernel.startswith("void fused_step_kernel"), kernel
    assert len(code) == 5 and code[2][2] == 1200.0, code
    assert code[4][3] == {"long_sb": 780.0}, code[4]
    text = ncu.summary(kernel, code, top=2, before=2).splitlines()
    assert text[1] == "samples: 2000 over 5 instructions", text[1]
    assert text[3].split() == ["barrier", "60.4%"] and text[4].split() == ["long_sb", "39.0%"], text[2:5]
    by_code = text.index(next(line for line in text if line.startswith("samples by 4096 bytes")))
    top = text.index(next(line for line in text if line.startswith("the 2 instructions")))
    windows = [line.split() for line in text[by_code + 1:top]]
    assert windows == [["+0x000000", "60.5%"], ["+0x001000", "39.5%"]], windows
    assert "+0x000020  60.0%  @P0 BRA" in text[top + 1], text[top + 1]
    assert "[barrier 1200]" in text[top + 1], text[top + 1]
    assert text[top + 2].split()[:3] == ["before:", "+0x000000", "LDC"], text[top + 2]
    assert text[top + 3].split()[:3] == ["before:", "+0x000010", "BAR.SYNC.DEFER_BLOCKING"], text[top + 3]
    assert "+0x001010  39.0%  @!P6 BRA" in text[top + 4] and "SYNCS.PHASECHK" in text[top + 6], text[top + 4:]
    print("ncu-hotspots: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
