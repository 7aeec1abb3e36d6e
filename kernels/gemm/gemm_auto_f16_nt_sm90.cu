// SPDX-License-Identifier: Apache-2.0
// The tile heuristic's dispatch for f16, A and B M/N-major (NT), and run_gemm_choice, and
// with them that TileFamily's plans.
#include <cute_cpp/kernels/gemm/gemm_auto.cuh>

namespace cute_cpp::kernels {

template void run_gemm_auto<plans::f16, plans::MN, plans::MN>(AutoGemmArguments<plans::f16> const&, cudaStream_t);
template std::size_t gemm_auto_workspace_bytes<plans::f16, plans::MN, plans::MN>(AutoGemmArguments<plans::f16> const&);
template void run_gemm_choice<plans::f16, plans::MN, plans::MN>(GemmChoice const&, AutoGemmArguments<plans::f16> const&, cudaStream_t);
template std::size_t gemm_choice_workspace_bytes<plans::f16, plans::MN, plans::MN>(GemmChoice const&, AutoGemmArguments<plans::f16> const&);
template void run_gemm_auto_unchecked<plans::f16, plans::MN, plans::MN>(AutoGemmArguments<plans::f16> const&, cudaStream_t);
template void run_gemm_choice_unchecked<plans::f16, plans::MN, plans::MN>(GemmChoice const&, AutoGemmArguments<plans::f16> const&, cudaStream_t);

}  // namespace cute_cpp::kernels
