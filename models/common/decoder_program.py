# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: 2026 cute-cpp authors
"""The model programs under test (cute-cpp-qwen3, cute-cpp-nemotron) as check scripts run them: a
subprocess per command, its `logits` file and `ids i:` lines read back, a failure as ProgramError with
the command and the tail of its stderr. check_qwen3.py and check_nemotron.py share it."""
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import numpy as np

TIMEOUT_S = 300


def built_program(build, folder, name):
    """<build>/models/<folder>/<name> when it is an executable file; else None, after saying which
    target to build on stderr (the check scripts' first step)."""
    binary = Path(build) / "models" / folder / name
    if binary.is_file() and os.access(binary, os.X_OK):
        return binary
    print(f"FAIL: {binary} is not an executable file (build the target {name})", file=sys.stderr)
    return None


class ProgramError(RuntimeError):
    pass


def ids_argument(prompts):
    """--ids: ',' between ids, ';' between prompts."""
    return ";".join(",".join(str(int(t)) for t in p) for p in prompts)


def shown_command(argv, limit=300):
    text = " ".join(shlex.quote(str(a)) for a in argv)
    return text if len(text) <= limit else text[:limit] + " ..."


def first_line(text):
    for line in text.splitlines():
        if line.strip():
            return line.strip()
    return "(empty)"


def stderr_summary(text, tail=5):
    """A failed run's stderr in brief: its error (the first `cute-cpp [rule]: ...` line, else the first
    line), then its last `tail` lines where the error is not among them. The error comes first and a usage
    text after it: the tail alone showed only the usage's last lines."""
    lines = [line.rstrip() for line in text.splitlines() if line.strip()]
    if not lines:
        return "(no stderr)"
    error = next((line for line in lines if "cute-cpp [" in line), lines[0])
    last = lines[-tail:]
    return "\n".join(last if error in last else [error, "...", *last])


class Program:
    def __init__(self, path, work):
        self.path, self.work, self.runs = Path(path), Path(work), 0

    def run(self, args, timeout=TIMEOUT_S):
        """Runs the program; returns the CompletedProcess (text), raising ProgramError on a timeout."""
        argv = [str(self.path), *map(str, args)]
        try:
            return subprocess.run(argv, capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL)
        except subprocess.TimeoutExpired:
            raise ProgramError(f"timed out after {timeout} s: {shown_command(argv)}") from None

    def run_ok(self, args):
        done = self.run(args)
        if done.returncode != 0:
            raise ProgramError(f"exit {done.returncode}: {shown_command([self.path, *args])}: "
                               f"{stderr_summary(done.stderr)}")
        # The program falls back to eager decode steps when recording one fails; here that is a failure,
        # or the graphs-vs-eager check would compare two eager runs.
        fallback = [line for line in done.stderr.splitlines() if "no CUDA graph" in line]
        if fallback:
            raise ProgramError(f"{shown_command([self.path, *args])}: {fallback[0]}")
        return done

    def logits(self, folder, prompts, vocab):
        """`logits` for the prompts as one batch: float32 [total tokens, vocab]."""
        self.runs += 1
        out = self.work / f"logits-{self.runs}.f32"
        self.run_ok(["logits", "--model", folder, "--ids", ids_argument(prompts), "--out", out])
        total = sum(len(p) for p in prompts)
        expected = total * vocab * 4
        size = out.stat().st_size if out.exists() else -1
        if size != expected:
            raise ProgramError(f"{out.name}: {size} bytes, expected {total} tokens x {vocab} x 4 = {expected}")
        return np.fromfile(out, dtype="<f4").reshape(total, vocab)

    def generate(self, folder, prompts, new_tokens, vocab, extra=()):
        """`generate --ignore-eos` for the prompts as one batch: the generated ids of each prompt."""
        done = self.run_ok(["generate", "--model", folder, "--ids", ids_argument(prompts), "--max-new-tokens",
                            new_tokens, "--ignore-eos", *extra])
        got = parse_generated(done.stdout, len(prompts))
        for i, ids in enumerate(got):
            if len(ids) != new_tokens:
                raise ProgramError(f"prompt {i}: {len(ids)} ids generated, expected {new_tokens} (--ignore-eos)")
            # checked here: an id out of range would be a device-side assert in the reference's embedding
            bad = [t for t in ids if not 0 <= t < vocab]
            if bad:
                raise ProgramError(f"prompt {i}: generated ids outside [0, {vocab}): {bad[:5]}")
        return got


def parse_generated(stdout, count):
    """The `ids i: t1 t2 ...` lines as one list per prompt, in prompt order; other lines are ignored."""
    found = {}
    for line in stdout.splitlines():
        match = re.match(r"ids (\d+):(.*)$", line.rstrip())
        if not match:
            continue
        index = int(match[1])
        try:
            ids = [int(t) for t in match[2].split()]
        except ValueError as e:
            raise ProgramError(f"cannot read the line {line!r}: {e}") from None
        if index in found:
            raise ProgramError(f"two lines for prompt {index}")
        found[index] = ids
    missing = [i for i in range(count) if i not in found]
    extra = sorted(set(found) - set(range(count)))
    if missing or extra:
        raise ProgramError(f"`ids i:` lines missing for prompts {missing}, unexpected for {extra}; "
                           f"stdout began {stdout[:200]!r}")
    return [found[i] for i in range(count)]
