#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""scripts/ncu-compare's reading of ncu's details CSV: metric rows (shorter than the header: no
rule columns) of two kernels, rule rows without a metric, a column per kernel in ID order."""
import importlib.machinery
import importlib.util
import sys
from pathlib import Path

path = Path(__file__).resolve().parents[2] / "scripts/ncu-compare"
loader = importlib.machinery.SourceFileLoader("ncu_compare", str(path))
spec = importlib.util.spec_from_loader("ncu_compare", loader)
ncu = importlib.util.module_from_spec(spec)
loader.exec_module(ncu)

HEADER = ('"ID","Process ID","Process Name","Host Name","Kernel Name","Context","Stream","Block Size","Grid Size",'
          '"Device","CC","Section Name","Metric Name","Metric Unit","Metric Value","Rule Name","Rule Type",'
          '"Rule Description","Estimated Speedup Type","Estimated Speedup"')


def row(kid, kernel, section, metric, unit, value):
    return (f'"{kid}","1","python3","host","{kernel}","1","7","(384, 1, 1)","(132, 1, 1)","0","9.0",'
            f'"{section}","{metric}","{unit}","{value}",')


def main():
    ours = "void cute_cpp::fmha_kernel<cute_cpp::FmhaPlan<__nv_bfloat16, 128>>(T1::MapQ, cute_cpp::FmhaParams)"
    theirs = "cudnn_generated_fort_native_sdpa_sm90_flash_fprop_wgmma_f16_knob_7"
    lines = [HEADER,
             row(1, theirs, "Memory Workload Analysis", "L2 Hit Rate", "%", "88.23"),
             row(0, ours, "Memory Workload Analysis", "L2 Hit Rate", "%", "3.89"),
             row(0, ours, "GPU Speed Of Light Throughput", "Duration", "ms", "2.05"),
             row(1, theirs, "GPU Speed Of Light Throughput", "Duration", "ms", "1.62"),
             '"0","1","python3","host","' + ours + '","1","7","(384, 1, 1)","(132, 1, 1)","0","9.0",'
             '"SpeedOfLight","","","","SOLBottleneck","OPT","some advice","global","12.5"']
    kernels = ncu.read_report(lines)
    assert sorted(kernels) == ["0", "1"], kernels
    assert kernels["0"][1][("Memory Workload Analysis", "L2 Hit Rate")] == ("3.89", "%")
    assert ("SpeedOfLight", "") not in kernels["0"][1]  # a rule row is no metric
    text = ncu.table(kernels).splitlines()
    assert text[0].split() == ["metric", "fmha_kernel", "cudnn_generated_fort_nat"], text[0]
    assert text[1].split() == ["Duration", "(ms)", "2.05", "1.62"], text[1]
    assert text[2].split() == ["L2", "Hit", "Rate", "(%)", "3.89", "88.23"], text[2]
    assert len(text) == 3, text  # metrics no kernel has are left out
    print("ncu-compare: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
