// SPDX-License-Identifier: Apache-2.0
// The bf16 GEMMs for sm_90a: the 128 x 256 tile for every operand major-ness, the narrower
// K-major tiles, and the tile heuristic's dispatch for K-major A and B.
#include <cute_cpp/kernels/gemm/gemm_auto.cuh>

#include <algorithm>

namespace cute_cpp::kernels {

template void run_gemm_unchecked<plans::Bf16TN>(GemmArguments<plans::Bf16TN> const&, cudaStream_t);
template void run_gemm_unchecked<plans::Bf16NN>(GemmArguments<plans::Bf16NN> const&, cudaStream_t);
template void run_gemm_unchecked<plans::Bf16TT>(GemmArguments<plans::Bf16TT> const&, cudaStream_t);
template void run_gemm_unchecked<plans::Bf16NT>(GemmArguments<plans::Bf16NT> const&, cudaStream_t);
template void run_gemm_unchecked<plans::Bf16TNNoCluster>(GemmArguments<plans::Bf16TNNoCluster> const&, cudaStream_t);
template void run_gemm_unchecked<plans::Bf16TN128>(GemmArguments<plans::Bf16TN128> const&, cudaStream_t);
template void run_gemm_unchecked<plans::Bf16TN64>(GemmArguments<plans::Bf16TN64> const&, cudaStream_t);
template void run_gemm_unchecked<plans::Bf16TN128NoCluster>(GemmArguments<plans::Bf16TN128NoCluster> const&, cudaStream_t);
template void run_gemm_unchecked<plans::Bf16TN64NoCluster>(GemmArguments<plans::Bf16TN64NoCluster> const&, cudaStream_t);
template void run_gemm_unchecked<plans::Bf16TNPingPong>(GemmArguments<plans::Bf16TNPingPong> const&, cudaStream_t);
template std::size_t gemm_workspace_bytes<plans::Bf16TN>(GemmArguments<plans::Bf16TN> const&);
template std::size_t gemm_workspace_bytes<plans::Bf16NN>(GemmArguments<plans::Bf16NN> const&);
template std::size_t gemm_workspace_bytes<plans::Bf16TT>(GemmArguments<plans::Bf16TT> const&);
template std::size_t gemm_workspace_bytes<plans::Bf16NT>(GemmArguments<plans::Bf16NT> const&);
template std::size_t gemm_workspace_bytes<plans::Bf16TNNoCluster>(GemmArguments<plans::Bf16TNNoCluster> const&);
template std::size_t gemm_workspace_bytes<plans::Bf16TN128>(GemmArguments<plans::Bf16TN128> const&);
template std::size_t gemm_workspace_bytes<plans::Bf16TN64>(GemmArguments<plans::Bf16TN64> const&);
template std::size_t gemm_workspace_bytes<plans::Bf16TN128NoCluster>(GemmArguments<plans::Bf16TN128NoCluster> const&);
template std::size_t gemm_workspace_bytes<plans::Bf16TN64NoCluster>(GemmArguments<plans::Bf16TN64NoCluster> const&);
template std::size_t gemm_workspace_bytes<plans::Bf16TNPingPong>(GemmArguments<plans::Bf16TNPingPong> const&);

// Instantiated in gemm_skinny_sm90.cu (a translation unit of its own, so both compile in parallel).
extern template void run_gemm_unchecked<plans::Bf16TN112NoCluster>(GemmArguments<plans::Bf16TN112NoCluster> const&, cudaStream_t);
extern template void run_gemm_unchecked<plans::Bf16TN112ClusterN>(GemmArguments<plans::Bf16TN112ClusterN> const&, cudaStream_t);
extern template void run_gemm_unchecked<plans::Bf16TNSwap16>(GemmArguments<plans::Bf16TNSwap16> const&, cudaStream_t);
extern template void run_gemm_unchecked<plans::Bf16TNSwap32>(GemmArguments<plans::Bf16TNSwap32> const&, cudaStream_t);
extern template void run_gemm_unchecked<plans::Bf16TNSwap64>(GemmArguments<plans::Bf16TNSwap64> const&, cudaStream_t);
extern template void run_gemm_unchecked<plans::Bf16TNSwap128c2>(GemmArguments<plans::Bf16TNSwap128c2> const&, cudaStream_t);
extern template std::size_t gemm_workspace_bytes<plans::Bf16TN112NoCluster>(GemmArguments<plans::Bf16TN112NoCluster> const&);
extern template std::size_t gemm_workspace_bytes<plans::Bf16TN112ClusterN>(GemmArguments<plans::Bf16TN112ClusterN> const&);
extern template std::size_t gemm_workspace_bytes<plans::Bf16TNSwap16>(GemmArguments<plans::Bf16TNSwap16> const&);
extern template std::size_t gemm_workspace_bytes<plans::Bf16TNSwap32>(GemmArguments<plans::Bf16TNSwap32> const&);
extern template std::size_t gemm_workspace_bytes<plans::Bf16TNSwap64>(GemmArguments<plans::Bf16TNSwap64> const&);
extern template std::size_t gemm_workspace_bytes<plans::Bf16TNSwap128c2>(GemmArguments<plans::Bf16TNSwap128c2> const&);
// Instantiated in gemm_simt_sm90.cu.
extern template void run_gemm_unchecked<plans::Bf16TNSimt>(GemmArguments<plans::Bf16TNSimt> const&, cudaStream_t);
extern template std::size_t gemm_workspace_bytes<plans::Bf16TNSimt>(GemmArguments<plans::Bf16TNSimt> const&);

template void run_gemm_auto<plans::bf16, plans::K, plans::K>(AutoGemmArguments<plans::bf16> const&, cudaStream_t);
template std::size_t gemm_auto_workspace_bytes<plans::bf16, plans::K, plans::K>(AutoGemmArguments<plans::bf16> const&);
template void run_gemm_choice<plans::bf16, plans::K, plans::K>(GemmChoice const&, AutoGemmArguments<plans::bf16> const&, cudaStream_t);
template std::size_t gemm_choice_workspace_bytes<plans::bf16, plans::K, plans::K>(GemmChoice const&, AutoGemmArguments<plans::bf16> const&);
template void run_gemm_auto_unchecked<plans::bf16, plans::K, plans::K>(AutoGemmArguments<plans::bf16> const&, cudaStream_t);
template void run_gemm_choice_unchecked<plans::bf16, plans::K, plans::K>(GemmChoice const&, AutoGemmArguments<plans::bf16> const&, cudaStream_t);

}  // namespace cute_cpp::kernels
