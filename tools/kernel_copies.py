#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Kernels a build compiles more than once: for every object file (*.cu.o) under a build folder, the
kernels cuobjdump -res-usage lists per target; a (kernel, target) pair found in several objects was
compiled once per object, all but one of them for nothing (a header's inline function instantiating
a kernel template in each includer, a dispatch table reached from every file that sees its
definition). Prints the extra compiles by kernel template and by object. Objects whose source is not
in this source tree are left out: a removed file's stale object, the projects the install tests build
inside the folder. Standard library only.

    tools/kernel_copies.py BUILD_DIR [--top N] [--budget COPIES]
With --budget, exits 1 when the build holds more copies than that (CI's guard, tests/CMakeLists.txt)."""
import argparse
import collections
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ARCH = re.compile(r"arch = (sm_\w+)")
FUNCTION = re.compile(r"Function ([^\s:]+):")


def kernels_of(res_usage):
    """{(mangled name, target)} from cuobjdump -res-usage's text."""
    found, arch = set(), "?"
    for line in res_usage.splitlines():
        if m := ARCH.search(line):
            arch = m.group(1)
        if m := FUNCTION.search(line):
            found.add((m.group(1), arch))
    return found


def copies(objects):
    """{(kernel, target): [objects]} for the pairs found in more than one of `objects` ({object:
    kernels_of(...)})."""
    where = collections.defaultdict(list)
    for obj, kernels in objects.items():
        for key in kernels:
            where[key].append(obj)
    return {key: sorted(objs) for key, objs in where.items() if len(objs) > 1}


def source_of(obj):
    """The source CMake built `obj` (relative to the build folder) from, relative to the source tree:
    'kernels/CMakeFiles/t.dir/rows/x.cu.o' -> 'kernels/rows/x.cu' (a '__' component is '..')."""
    folder, _, rest = obj.rpartition("CMakeFiles/")
    relative = rest.partition("/")[2].removesuffix(".o")
    return Path(folder, *[".." if part == "__" else part for part in relative.split("/")])


def template_name(demangled):
    """'void ns::k<int, 2>(int*)' -> 'ns::k'."""
    return re.sub(r"[<(].*", "", demangled.removeprefix("void "))


def cuobjdump():
    local = ROOT / ".tools/py/nvidia/cu13/bin/cuobjdump"
    found = str(local) if local.exists() else shutil.which("cuobjdump")
    if not found:
        sys.exit("cute-cpp [build.cuobjdump]: cuobjdump not found; run scripts/setup")
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("build", type=Path)
    parser.add_argument("--top", type=int, default=20)
    parser.add_argument("--budget", type=int, help="exit 1 above this many copies")
    args = parser.parse_args()
    tool = cuobjdump()
    objects = {}
    for obj in sorted(args.build.rglob("*.cu.o")):
        relative = str(obj.relative_to(args.build))
        if not (ROOT / source_of(relative)).is_file():
            continue
        out = subprocess.run([tool, "-res-usage", str(obj)], capture_output=True, text=True).stdout
        objects[relative] = kernels_of(out)
    compiled = sum(len(k) for k in objects.values())
    repeated = copies(objects)
    extra = sum(len(objs) - 1 for objs in repeated.values())
    print(f"{len(objects)} objects, {compiled} kernel compiles (kernel x target), {extra} of them copies")
    names = sorted({name for name, _ in repeated})
    out = subprocess.run(["c++filt"], input="\n".join(names), capture_output=True, text=True).stdout
    demangled = dict(zip(names, out.split("\n")))
    by_template, by_object = collections.Counter(), collections.Counter()
    for (name, _), objs in repeated.items():
        by_template[template_name(demangled.get(name, name))] += len(objs) - 1
        for obj in objs:
            by_object[obj] += 1
    print("\ncopies by kernel template:")
    for name, n in by_template.most_common(args.top):
        print(f"  {n:5d}  {name}")
    print("\nobjects holding a kernel another object holds (count of such kernels):")
    for obj, n in by_object.most_common(args.top):
        print(f"  {n:5d}  {obj}")
    if args.budget is not None and extra > args.budget:
        sys.exit(f"cute-cpp [build.kernel-copies]: {extra} kernel compiles are copies, over the budget of "
                 f"{args.budget}: a header compiles a kernel in each file that includes it (see the lists above)")


if __name__ == "__main__":
    main()
