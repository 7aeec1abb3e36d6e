// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// kernels/gemm/gemm_fp4_sm120.cuh instantiated for the GEMM's 128 x 128 plans (8 warps, 3 stages), alone in
// this object: NVFP4 issues the UE4M3.4X OMMA, MXFP4 the E8 one; the operands arrive by cp.async
// (LDGSTS) and ldmatrix (LDSM); no local memory.
// cute-cpp-arch: 120a
// expect-sass: {{"OMMA\.SF\.16864\.F32\.E2M1\.E2M1\.UE4M3\.4X "}}
// expect-sass: {{"OMMA\.SF\.16864\.F32\.E2M1\.E2M1\.E8 "}}
// expect-sass: {{"LDGSTS"}}
// expect-sass: {{"LDSM\.16\.M88\.4"}}
// reject-sass: {{"[ \t](LDL|STL)[. ]"}}
#include "../../../kernels/gemm/gemm_fp4_sm120.cuh"

namespace kn = cute_cpp::kernels;
template __global__ void kn::gemm_fp4_kernel<kn::GemmFp4TilePlan<kn::Fp4Format::nvfp4>>(kn::Fp4GemmParams);
template __global__ void kn::gemm_fp4_kernel<kn::GemmFp4TilePlan<kn::Fp4Format::mxfp4>>(kn::Fp4GemmParams);
