#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The rooms' sizes (../shared/STYLE.md; issue 42's bounds): every source file under kernels/ and
include/ (generated ones aside) at most FILE_LIMIT lines, every function there at most FUNCTION_LIMIT.

A function is a brace block opened at namespace, class or extern "C" scope whose head (the code since
the last ';', '{' or '}') holds a parameter list and is not a type, namespace or initializer; its
size runs from the head's first line to the closing brace. Comments, strings and character literals
are blanked first, so their braces do not count. Standard library only.

    tools/room_sizes.py [ROOT]       lists what passes a bound; exits 1 if anything does
    tools/room_sizes.py --top N      the N longest functions and files, bounds or not"""
import argparse
import re
import sys
from pathlib import Path

FILE_LIMIT = 600
FUNCTION_LIMIT = 120
FOLDERS = ("kernels", "include")
SUFFIXES = {".hpp", ".cuh", ".cu", ".h", ".cpp"}
NOT_FUNCTIONS = re.compile(r"^\s*(?:template\s*<.*>\s*)?(?:struct|class|union|enum|namespace)\b|"
                           r"^\s*(?:if|for|while|switch|do|else|try|catch)\b|=\s*$|\breturn\b|^\s*$", re.S)


def blank_code(text):
    """text with comments, string and character literals replaced by spaces (newlines kept)."""
    pattern = re.compile(r'//[^\n]*|/\*.*?\*/|R"(?P<d>[^(\s]*)\(.*?\)(?P=d)"'  # comments, raw strings
                         r'|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)  # strings, characters
    return pattern.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)


def function_name(head):
    """The name before the head's parameter list: the first identifier followed by '(' outside any
    parentheses that is not an attribute or a type's spelling (__launch_bounds__, decltype, ...)."""
    depth, outside = 0, []
    for ch in head:
        depth += ch == "("
        outside.append(ch if depth == 0 or (depth == 1 and ch == "(") else " ")
        depth -= ch == ")"
    skip = {"__launch_bounds__", "decltype", "alignas", "requires", "noexcept", "__attribute__", "sizeof"}
    names = [n for n in re.findall(r"([~\w:]+|operator\S+)\s*\(", "".join(outside)) if n not in skip]
    return names[0] if names else "?"


def functions(text):
    """(name, first line, last line) of each function defined at namespace or class scope."""
    code = blank_code(text)
    # For each open brace: its kind ("scope": namespace, class, extern; "function"; "body": any block
    # inside a function), its head's first line and the head.
    stack = []
    head_start, found, line = 0, [], 1
    for i, ch in enumerate(code):
        if ch == "\n":
            line += 1
        if ch not in "{};":
            continue
        if ch == "{":
            head = re.sub(r"^\s*#.*$", "", code[head_start:i], flags=re.M)  # preprocessor lines aside
            kind = "body"
            if all(k == "scope" for k, _, _ in stack):
                kind = "function" if ")" in head and not NOT_FUNCTIONS.search(head.strip()) else "scope"
            stack.append((kind, line - head.lstrip().count("\n"), head.strip()))
        elif ch == "}" and stack:
            kind, first, head = stack.pop()
            if kind == "function":
                found.append((function_name(head), first, line))
        head_start = i + 1
    return found


def sources(root):
    for folder in FOLDERS:
        for path in sorted((root / folder).rglob("*")):
            if path.suffix in SUFFIXES and "generated" not in path.parts and path.is_file():
                yield path


def main(argv):
    ap = argparse.ArgumentParser(description="the rooms' sizes against STYLE.md's bounds")
    ap.add_argument("root", nargs="?", default=Path(__file__).resolve().parent.parent, type=Path)
    ap.add_argument("--top", type=int, default=0, help="list the N longest functions and files instead")
    opts = ap.parse_args(argv[1:])
    root, top = opts.root, opts.top
    over, sizes, lengths = [], [], []
    for path in sources(root):
        text = path.read_text(errors="replace")
        rel = path.relative_to(root)
        count = text.count("\n")
        sizes.append((count, str(rel)))
        if count > FILE_LIMIT:
            over.append(f"{rel}: {count} lines (at most {FILE_LIMIT})")
        for name, first, last in functions(text):
            length = last - first + 1
            lengths.append((length, f"{rel}:{first} {name}"))
            if length > FUNCTION_LIMIT:
                over.append(f"{rel}:{first}: function {name} {length} lines (at most {FUNCTION_LIMIT})")
    if top:
        for length, where in sorted(lengths, reverse=True)[:top]:
            print(f"{length:5d}  {where}")
        for count, where in sorted(sizes, reverse=True)[:top]:
            print(f"{count:5d}  {where}")
        return 0
    for line in over:
        print(line)
    print(f"room_sizes: {len(sizes)} files, {len(lengths)} functions; {len(over)} over the bounds")
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
