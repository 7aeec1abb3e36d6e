// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// kernels/ssm/ssd_tensor_cores.cuh's three chunk-product kernels for Nemotron-3 Nano's plan, alone in
// this object: their products as tf32 mma.sync (3xTF32) on operands loaded by ldmatrix from shared
// memory; no local memory.
// cute-cpp-arch: 90a
// expect-sass: {{"HMMA\.1688\.F32\.TF32"}}
// expect-sass: {{"LDSM\.16\.M88\.4"}}
// reject-sass: {{"[ \t](LDL|STL)[. ]"}}
#include "../../../kernels/ssm/ssd_tensor_cores.cuh"

namespace kn = cute_cpp::kernels;
using bf16 = __nv_bfloat16;
using Plan = kn::NemotronSsdPlanTensorCores;
template __global__ void kn::ssd_bmm_tc_kernel<bf16, Plan>(kn::SsdParams<bf16>);
template __global__ void kn::ssd_chunk_state_tc_kernel<bf16, Plan>(kn::SsdParams<bf16>);
template __global__ void kn::ssd_chunk_scan_tc_kernel<bf16, Plan>(kn::SsdParams<bf16>);
