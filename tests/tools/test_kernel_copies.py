# SPDX-License-Identifier: Apache-2.0
"""tools/kernel_copies.py: the (kernel, target) pairs it reads from cuobjdump -res-usage text, and
which of them it counts as copies, on made-up objects."""
import importlib.util
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("kernel_copies", ROOT / "tools/kernel_copies.py")
copies = importlib.util.module_from_spec(spec)
spec.loader.exec_module(copies)

RES_USAGE = """
Fatbin elf code:
================
arch = sm_90a
code version = [1,8]
host = linux
compile_size = 64bit

Resource usage:
 Common:
  GLOBAL:0
 Function _Z6kernelILi1EEvPi:
  REG:16 STACK:0 SHARED:0 LOCAL:0 CONSTANT[0]:904 TEXTURE:0 SURFACE:0 SAMPLER:0
 Function _Z5otherPf:
  REG:8 STACK:0 SHARED:0 LOCAL:0 CONSTANT[0]:904 TEXTURE:0 SURFACE:0 SAMPLER:0

Fatbin elf code:
================
arch = sm_100a
code version = [1,8]

Resource usage:
 Function _Z6kernelILi1EEvPi:
  REG:16 STACK:0 SHARED:0 LOCAL:0 CONSTANT[0]:904 TEXTURE:0 SURFACE:0 SAMPLER:0
"""


class KernelCopies(unittest.TestCase):
    def test_reads_each_kernel_per_target(self):
        self.assertEqual(copies.kernels_of(RES_USAGE), {("_Z6kernelILi1EEvPi", "sm_90a"), ("_Z5otherPf", "sm_90a"),
                                                        ("_Z6kernelILi1EEvPi", "sm_100a")})

    def test_a_pair_in_two_objects_is_a_copy_and_one_target_apart_is_not(self):
        a = copies.kernels_of(RES_USAGE)
        b = {("_Z6kernelILi1EEvPi", "sm_90a"), ("_Z5otherPf", "sm_120a")}
        found = copies.copies({"a.cu.o": a, "b.cu.o": b})
        self.assertEqual(found, {("_Z6kernelILi1EEvPi", "sm_90a"): ["a.cu.o", "b.cu.o"]})

    def test_source_of_follows_cmakes_object_paths(self):
        self.assertEqual(copies.source_of("kernels/CMakeFiles/t.dir/rows/x.cu.o"), Path("kernels/rows/x.cu"))
        self.assertEqual(copies.source_of("CMakeFiles/t.dir/a.cu.o"), Path("a.cu"))
        self.assertEqual(copies.source_of("python/CMakeFiles/t.dir/__/kernels/k.cu.o"), Path("python/../kernels/k.cu"))

    def test_template_name_drops_arguments_and_parameters(self):
        self.assertEqual(copies.template_name("void ns::k<int, 2>(int*)"), "ns::k")
        self.assertEqual(copies.template_name("void ns::plain(float)"), "ns::plain")


if __name__ == "__main__":
    unittest.main()
