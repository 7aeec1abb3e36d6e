// SPDX-License-Identifier: Apache-2.0
// The tile heuristic's dispatch for f16, A and B K-major (TN), and run_gemm_choice, and
// with them that TileFamily's plans.
#include <cute_cpp/kernels/gemm/gemm_auto.cuh>

namespace cute_cpp::kernels {

// Its 128 x 256 tile is instantiated in gemm_types_sm90.cu.
extern template void run_gemm_unchecked<plans::F16TN>(GemmArguments<plans::F16TN> const&, cudaStream_t);
extern template std::size_t gemm_workspace_bytes<plans::F16TN>(GemmArguments<plans::F16TN> const&);
template void run_gemm_auto<plans::f16, plans::K, plans::K>(AutoGemmArguments<plans::f16> const&, cudaStream_t);
template std::size_t gemm_auto_workspace_bytes<plans::f16, plans::K, plans::K>(AutoGemmArguments<plans::f16> const&);
template void run_gemm_choice<plans::f16, plans::K, plans::K>(GemmChoice const&, AutoGemmArguments<plans::f16> const&, cudaStream_t);
template std::size_t gemm_choice_workspace_bytes<plans::f16, plans::K, plans::K>(GemmChoice const&, AutoGemmArguments<plans::f16> const&);
template void run_gemm_auto_unchecked<plans::f16, plans::K, plans::K>(AutoGemmArguments<plans::f16> const&, cudaStream_t);
template void run_gemm_choice_unchecked<plans::f16, plans::K, plans::K>(GemmChoice const&, AutoGemmArguments<plans::f16> const&, cudaStream_t);

}  // namespace cute_cpp::kernels
