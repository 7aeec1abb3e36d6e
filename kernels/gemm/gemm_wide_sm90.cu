// SPDX-License-Identifier: Apache-2.0
// The bf16 GEMM of 128 x 320 tiles for sm_90a (a translation unit of its own, so it compiles in
// parallel with the others).
#include <cute_cpp/kernels/gemm/gemm_sm90.cuh>
#include <cute_cpp/kernels/gemm/plans.hpp>

namespace cute_cpp::kernels {

template void run_gemm_unchecked<plans::Bf16TN320>(GemmArguments<plans::Bf16TN320> const&, cudaStream_t);
template std::size_t gemm_workspace_bytes<plans::Bf16TN320>(GemmArguments<plans::Bf16TN320> const&);

}  // namespace cute_cpp::kernels
