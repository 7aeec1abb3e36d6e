// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// models/qwen3_tts/codec_ops.cuh: what the weight loader and the decoder's passes share: the
// transposed-conv plan a rate takes (the plans cute_cpp::conv compiles), the linear layers on the
// GEMM (plain, and with a bias and a residual source), and the GEMMs' grow-only workspace.
#include <cute_cpp/kernels/attention/prefill/fmha.hpp>  // run_attention
#include <cute_cpp/kernels/gemm/gemm.hpp>               // run_gemm
#include <cute_cpp/kernels/gemm/plans.hpp>              // plans::Bf16TN, Bf16TNLinear, run_gemm_bf16_tn
#include <cute_cpp/kernels/gemm/ffn.cuh>                // pack_gate_up

#include <cute_cpp/host/buffer.hpp>        // DeviceBuffer
#include <cute_cpp/host/error.hpp>         // cuda_check
#include <cute_cpp/kernels/conv/conv.cuh>  // ConvTransposeS*, run_causal_conv_transpose1d

#include "models/common/linear.cuh"  // GrowingWorkspace, linear_tn

#include <cuda_bf16.h>

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace cute_cpp::models::qwen3_tts {

// ---- transposed-conv plans: the kernels' (the config reader refuses other rates first) ----

using cute_cpp::kernels::with_conv_transpose_plan;

// ---- the GEMMs' workspace and plain linears: models/common's ----

using GemmWorkspace = GrowingWorkspace;
using cute_cpp::models::linear_tn;

// ---- linear layers ----

/// out = in W^T + bias (f32, one a column, or null) + source (m, n) (or null): the layers with a
/// bias, and those whose residual add the GEMM's epilogue does. @pre out apart from in, W, source.
inline void linear_bias(__nv_bfloat16 const* in, __nv_bfloat16 const* weight, float const* bias,
                        __nv_bfloat16 const* source, __nv_bfloat16* out, std::int64_t m, std::int64_t n, std::int64_t k,
                        GemmWorkspace& workspace, cudaStream_t stream) {
  namespace kn = cute_cpp::kernels;
  using Plan = kn::plans::Bf16TNLinear;
  if (m == 0) return;
  kn::GemmArguments<Plan> a;
  a.a = in, a.lda = k;
  a.b = weight, a.ldb = k;
  a.c = out, a.ldc = n;
  a.m = m, a.n = n, a.k = k;
  a.epilogue_op.bias = bias;
  if (source != nullptr) a.epilogue_op.source = source, a.epilogue_op.ld_source = n, a.epilogue_op.beta = 1.0f;
  a.workspace_bytes = kn::gemm_workspace_bytes<Plan>(a);
  a.workspace = workspace.ensure(a.workspace_bytes, stream);
  kn::run_gemm<Plan>(a, stream);
}

/// out (m, f) = silu(in Wg^T) * (in Wu^T) from the interleaved gate-up weight (2 f, k)
/// (kernels::pack_gate_up), in one GEMM with the SwiGLU epilogue.
inline void linear_swiglu(__nv_bfloat16 const* in, __nv_bfloat16 const* gate_up, __nv_bfloat16* out, std::int64_t m,
                          std::int64_t f, std::int64_t k, GemmWorkspace& workspace, cudaStream_t stream) {
  namespace kn = cute_cpp::kernels;
  using Plan = kn::plans::Bf16TNSwiGLU;
  if (m == 0) return;
  kn::GemmArguments<Plan> a;
  a.a = in, a.lda = k;
  a.b = gate_up, a.ldb = k;
  a.c = out, a.ldc = f;
  a.m = m, a.n = 2 * f, a.k = k;
  a.workspace_bytes = kn::gemm_workspace_bytes<Plan>(a);
  a.workspace = workspace.ensure(a.workspace_bytes, stream);
  kn::run_gemm<Plan>(a, stream);
}

}  // namespace cute_cpp::models::qwen3_tts
