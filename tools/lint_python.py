#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""pyflakes over the repository's Python: every *.py file and every script whose first line names
python. Much of it (the model checks, the benchmarks, scripts/gpu-check) runs only on the lent GPU
machine, where an undefined name costs device time; here it costs a test. Exits 1 on any message.

    tools/lint_python.py [ROOT]      (needs pyflakes: scripts/setup installs it in .tools/py)"""
import subprocess
import sys
from pathlib import Path

SKIPPED = {".git", ".tools", ".whl", ".whl-fa4", "__pycache__"}


def python_files(root):
    """The tracked and untracked-but-not-ignored files of a checkout, else every file below root
    outside build folders; those that are Python by name or by their #! line."""
    listed = subprocess.run(["git", "-C", str(root), "ls-files", "--cached", "--others", "--exclude-standard"],
                            capture_output=True, text=True)
    if listed.returncode == 0:
        paths = [root / line for line in listed.stdout.splitlines()]
    else:
        paths = [p for p in root.rglob("*") if not (SKIPPED & set(p.parts)) and not any(
            part.startswith("build") for part in p.relative_to(root).parts)]
    found = []
    for path in sorted(p for p in paths if p.is_file()):
        if path.suffix == ".py":
            found.append(path)
        elif not path.suffix:
            with open(path, "rb") as f:
                first = f.readline()
            if first.startswith(b"#!") and b"python" in first:
                found.append(path)
    return found


def main():
    root = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).resolve().parent.parent).resolve()
    try:
        from pyflakes.api import checkPath
        from pyflakes.reporter import Reporter
    except ImportError:
        print("lint_python: pyflakes is missing (scripts/setup installs it in .tools/py)", file=sys.stderr)
        return 1
    files = python_files(root)
    messages = sum(checkPath(str(path), Reporter(sys.stdout, sys.stderr)) for path in files)
    print(f"lint_python: {len(files)} files, {messages} message(s)")
    return 1 if messages else 0


if __name__ == "__main__":
    sys.exit(main())
