#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""models/nemotron's GPU scripts (run only by scripts/gpu-check on the lent machine): both compile, and
bench_nemotron.py's limit arithmetic gives on the published Nano config the bytes the C++ decode_step_bytes
gives (tests/cpu/models/nemotron_runtime_test.cpp pins them against the weight manifest's total).

    nemotron_scripts_test.py REPO
"""
import json
import py_compile
import sys
from pathlib import Path


def main():
    repo = Path(sys.argv[1])
    for script in ("check_nemotron.py", "bench_nemotron.py"):
        py_compile.compile(str(repo / "models/nemotron" / script), doraise=True)
    sys.path.insert(0, str(repo / "models/nemotron"))
    import bench_nemotron
    # The published config as the C++ tests embed it (CI has no shared/ folder).
    header = (repo / "tests/cpu/models/nemotron_nano_config.hpp").read_text()
    nano = json.loads(header[header.index('R"(') + 3:header.index(')"')])
    weights, states, kv = bench_nemotron.step_bytes(nano, 1, 512)
    expected = {"weights": (weights, 6455529728.0), "states": (states, 2.0 * 23 * (36864 + 2097152)),
                "kv": (kv, 6.0 * 512 * 2 * 256 * 2)}
    failed = [f"{k}: {got} != {want}" for k, (got, want) in expected.items() if got != want]
    # Every expert is read once the batch is large: the routed experts' whole 58.7 GB.
    big = bench_nemotron.step_bytes(nano, 4096, 1)[0]
    whole = 63155892352 - 131072 * 2688 * 2 + 4096 * 2688 * 2 + 23 * 64 * 2
    if abs(big / whole - 1) > 1e-9:
        failed.append(f"batch 4096 weights {big} != {whole}")
    # The breakdown's floors split the step's bytes by phase, and add up to them.
    for b in (1, 32):
        phases = bench_nemotron.phase_bytes(nano, b, 544)
        whole = sum(bench_nemotron.step_bytes(nano, b, 544))
        if abs(sum(phases.values()) / whole - 1) > 1e-12:
            failed.append(f"batch {b}: phase_bytes sum {sum(phases.values())} != step_bytes {whole}")
    nano_phases = bench_nemotron.phase_bytes(nano, 1, 512)
    shared = 23 * 2 * 3712 * 2688 * 2  # in the experts' launches at batch 1 (moe_decode_folds_shared)
    routed = 23 * 128 * (1 - (1 - 6 / 128) ** 1) * 2 * 1856 * 2688 * 2
    want = {"mamba in_proj": 23 * 10304 * 2688 * 2, "moe shared expert": 0.0, "moe experts": routed + shared,
            "lm head": 131072 * 2688 * 2, "attention kv + core": 6 * 512 * 2 * 256 * 2, "moe combine": 0.0}
    failed += [f"phase {k}: {nano_phases.get(k)} != {v}" for k, v in want.items()
               if abs(nano_phases.get(k, -1.0) - v) > 1e-9 * max(v, 1.0)]
    if bench_nemotron.phase_bytes(nano, 32, 512)["moe shared expert"] != shared:
        failed.append("batch 32: the shared expert's bytes are its own phase's (the grouped path)")
    # Every phase the decoder marks (model_sm90.cu, mixers_sm90.cu, kernels/moe's moe_layer) has its bytes
    # in phase_bytes, and phase_bytes names no phase the decoder never marks.
    import re
    sources = [repo / "models/nemotron/model_sm90.cu", repo / "models/nemotron/mixers_sm90.cu",
               repo / "kernels/moe/moe.cuh"]
    marked = {m for f in sources for m in re.findall(r'mark\("([^"]+)"\)', f.read_text())} - {"start"}
    every_kind = dict(nano, hybrid_override_pattern=nano["hybrid_override_pattern"] + "-")  # Nano has no MLP layer
    named = set(bench_nemotron.phase_bytes(every_kind, 1, 512))
    if marked != named:
        failed.append(f"marked phases {sorted(marked)} != phase_bytes' {sorted(named)}")
    for f in failed:
        print("FAIL", f)
    print("bench_nemotron.step_bytes and phase_bytes: " + ("FAIL" if failed else "pass"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
