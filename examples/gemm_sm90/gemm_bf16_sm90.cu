// SPDX-License-Identifier: Apache-2.0
// The bf16 GEMMs for sm_90a: every operand major-ness.
#include "gemm_sm90.cuh"
#include "plans.hpp"

namespace cute_cpp::examples {
template void run_gemm<plans::Bf16TN>(GemmArguments<plans::Bf16TN> const&, cudaStream_t);
template void run_gemm<plans::Bf16NN>(GemmArguments<plans::Bf16NN> const&, cudaStream_t);
template void run_gemm<plans::Bf16TT>(GemmArguments<plans::Bf16TT> const&, cudaStream_t);
template void run_gemm<plans::Bf16NT>(GemmArguments<plans::Bf16NT> const&, cudaStream_t);
template void run_gemm<plans::Bf16TNNoCluster>(GemmArguments<plans::Bf16TNNoCluster> const&, cudaStream_t);
}  // namespace cute_cpp::examples
