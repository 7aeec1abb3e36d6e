#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Feeds every case of layout_vectors.jsonl through `cute-cpp layout --batch --plain` in one process
and compares each line with the expected result (whitespace removed). A mismatch that disappears
when every size-1 mode's stride is set to 0 on both sides is the stride convention the vectors'
README describes: counted separately, accepted. Exit 1 on any other mismatch."""
import json
import re
import subprocess
import sys


def expression(case):
    return f"{case['op']}({', '.join(case['args'])})"


def zero_size1_strides(text):
    """'(2,1):(1,2)' -> '(2,1):(1,0)' for flat and nested layouts written in notation."""
    if ":" not in text or text.startswith("Sw<"):
        return text
    shape, stride = text.split(":", 1)
    s_tokens = re.findall(r"-?\d+|[(),]", shape)
    d_tokens = re.findall(r"-?\d+|[(),]", stride)
    if len(s_tokens) != len(d_tokens):
        return text
    out = [("0" if s == "1" and d.lstrip("-").isdigit() else d) for s, d in zip(s_tokens, d_tokens)]
    return shape + ":" + "".join(out)


def main():
    tool, vectors = sys.argv[1], sys.argv[2]
    cases = [json.loads(line) for line in open(vectors) if line.strip()]
    run = subprocess.run([tool, "layout", "--batch", "--plain"], input="\n".join(expression(c) for c in cases) + "\n",
                         capture_output=True, text=True, check=True)
    results = run.stdout.split("\n")[: len(cases)]
    exact = convention = 0
    failures = []
    for case, got in zip(cases, results):
        want, got = case["expect"].replace(" ", ""), got.replace(" ", "")
        if got == want:
            exact += 1
        elif zero_size1_strides(got) == zero_size1_strides(want):
            convention += 1
        else:
            failures.append(f"{case['id']}: {expression(case)}\n    want {want}\n    got  {got}")
    print(f"{len(cases)} cases: {exact} exact, {convention} by the size-1 stride convention, {len(failures)} wrong")
    for f in failures[:20]:
        print(f)
    return 1 if failures or len(results) != len(cases) else 0


if __name__ == "__main__":
    sys.exit(main())
