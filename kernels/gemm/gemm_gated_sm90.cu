// SPDX-License-Identifier: Apache-2.0
// The gated epilogue for sm_90a: silu(gate) * up of interleaved gate and up columns (the FFN's
// fused gate-up projection).
#include <cute_cpp/kernels/gemm/gemm_sm90.cuh>
#include <cute_cpp/kernels/gemm/plans.hpp>

namespace cute_cpp::kernels {
template void run_gemm_unchecked<plans::Bf16TNSwiGLU>(GemmArguments<plans::Bf16TNSwiGLU> const&, cudaStream_t);
template std::size_t gemm_workspace_bytes<plans::Bf16TNSwiGLU>(GemmArguments<plans::Bf16TNSwiGLU> const&);
}  // namespace cute_cpp::kernels
