#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The GPU scripts (run only by scripts/gpu-check on the lent machine: the models' checks and benches,
the families' Python benches) import here, with torch, transformers and safetensors stood in by mocks
(CI has none of them), and every `module.name` they read from another of the repository's modules is
there: pyflakes (python.pyflakes) sees undefined names, not attributes of an imported module, and
check_nemotron.py reads many of decoder_checks'.

    check_scripts_test.py REPO
"""
import ast
import importlib
import sys
from pathlib import Path
from unittest import mock

STUBBED = ("torch", "torch.nn", "torch.nn.functional", "torch.nn.attention", "transformers", "safetensors",
           "safetensors.torch")
SCRIPTS = ("models/qwen3/check_qwen3.py", "models/qwen3/check_qwen3_tp.py", "models/qwen3/check_qwen3_tp_gpus.py",
           "models/qwen3/bench_qwen3.py",
           "models/nemotron/check_nemotron.py",
           "models/nemotron/bench_nemotron.py", "bench/attention/bench_sdpa_fmha.py",
           "bench/attention/bench_sdpa_fmha_backward.py", "bench/attention/bench_sdpa_decode.py",
           "bench/ssm/bench_ssd_triton.py")


def module_reads(path):
    """(alias, module name, attribute) for each `alias.attribute` where alias names an imported module."""
    tree = ast.parse(path.read_text())
    aliases = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                aliases[a.asname or a.name.split(".")[0]] = a.name if a.asname else a.name.split(".")[0]
    return {(n.value.id, aliases[n.value.id], n.attr) for n in ast.walk(tree)
            if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id in aliases}


def main():
    repo = Path(sys.argv[1]).resolve()
    for name in STUBBED:
        sys.modules[name] = mock.MagicMock(name=name)
    sys.argv = [sys.argv[0]]
    sys.path[:0] = [str(repo / d) for d in ("models/common", "models/qwen3", "models/nemotron", "bench/attention",
                                            "bench/ssm", "bench/support")]
    failed = []
    for script in SCRIPTS:
        path = repo / script
        try:
            importlib.import_module(path.stem)
        except Exception as e:  # noqa: BLE001 -- reported, then the next script
            failed.append(f"{script}: import failed: {type(e).__name__}: {e}")
            continue
        for alias, module, attr in sorted(module_reads(path)):
            if module in sys.modules and Path(getattr(sys.modules[module], "__file__", "") or "/").is_relative_to(repo):
                if not hasattr(sys.modules[module], attr):
                    failed.append(f"{script}: {alias}.{attr}: {module} has no {attr}")
    for f in failed:
        print("FAIL", f)
    print(f"{len(SCRIPTS)} scripts imported, their reads of the repository's modules checked: "
          + ("FAIL" if failed else "pass"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
