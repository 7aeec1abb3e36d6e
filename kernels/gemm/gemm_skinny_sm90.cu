// SPDX-License-Identifier: Apache-2.0
// The bf16 GEMMs of few rows for sm_90a: A and B swapped (at most 64 rows) and 112-column tiles
// (one tile row of 14336 columns fills a wave).
#include <cute_cpp/kernels/gemm/gemm_sm90.cuh>
#include <cute_cpp/kernels/gemm/plans.hpp>

namespace cute_cpp::kernels {

template void run_gemm_unchecked<plans::Bf16TN112NoCluster>(GemmArguments<plans::Bf16TN112NoCluster> const&, cudaStream_t);
template void run_gemm_unchecked<plans::Bf16TN112ClusterN>(GemmArguments<plans::Bf16TN112ClusterN> const&, cudaStream_t);
template void run_gemm_unchecked<plans::Bf16TNSwap16>(GemmArguments<plans::Bf16TNSwap16> const&, cudaStream_t);
template void run_gemm_unchecked<plans::Bf16TNSwap32>(GemmArguments<plans::Bf16TNSwap32> const&, cudaStream_t);
template void run_gemm_unchecked<plans::Bf16TNSwap64>(GemmArguments<plans::Bf16TNSwap64> const&, cudaStream_t);
template void run_gemm_unchecked<plans::Bf16TNSwap128c2>(GemmArguments<plans::Bf16TNSwap128c2> const&, cudaStream_t);
template std::size_t gemm_workspace_bytes<plans::Bf16TN112NoCluster>(GemmArguments<plans::Bf16TN112NoCluster> const&);
template std::size_t gemm_workspace_bytes<plans::Bf16TN112ClusterN>(GemmArguments<plans::Bf16TN112ClusterN> const&);
template std::size_t gemm_workspace_bytes<plans::Bf16TNSwap16>(GemmArguments<plans::Bf16TNSwap16> const&);
template std::size_t gemm_workspace_bytes<plans::Bf16TNSwap32>(GemmArguments<plans::Bf16TNSwap32> const&);
template std::size_t gemm_workspace_bytes<plans::Bf16TNSwap64>(GemmArguments<plans::Bf16TNSwap64> const&);
template std::size_t gemm_workspace_bytes<plans::Bf16TNSwap128c2>(GemmArguments<plans::Bf16TNSwap128c2> const&);

}  // namespace cute_cpp::kernels
