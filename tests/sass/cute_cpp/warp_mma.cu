// SPDX-License-Identifier: Apache-2.0
// The warp-MMA surface (TiledMma over mma.sync, ldmatrix operand loads, a cp.async tiled copy)
// becomes HMMA, LDSM and LDGSTS on every target: the kernels of tests/compile/tensor/surface.cu,
// checked in SASS (the ffn example, which checked them before, now runs on the wgmma GEMM).
// cute-cpp-archs: 90a 100a 120a
// expect-sass: {{"HMMA\.16816\.F32\.BF16"}}
// expect-sass: {{"LDSM\.16\.M88\.4"}}
// expect-sass: {{"LDGSTS\.E\.BYPASS\.128"}}
// reject-sass: {{"[ \t](LDL|STL)[. ]"}}
#include "../../compile/tensor/surface.cu"
