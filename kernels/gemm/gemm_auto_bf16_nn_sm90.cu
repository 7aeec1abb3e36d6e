// SPDX-License-Identifier: Apache-2.0
// The tile heuristic's dispatch for bf16, A M-major (NN), and run_gemm_choice, and
// with them that TileFamily's plans.
#include <cute_cpp/kernels/gemm/gemm_auto.cuh>

namespace cute_cpp::kernels {

// Its 128 x 256 tile is instantiated in gemm_bf16_sm90.cu.
extern template void run_gemm_unchecked<plans::Bf16NN>(GemmArguments<plans::Bf16NN> const&, cudaStream_t);
extern template std::size_t gemm_workspace_bytes<plans::Bf16NN>(GemmArguments<plans::Bf16NN> const&);
template void run_gemm_auto<plans::bf16, plans::MN, plans::K>(AutoGemmArguments<plans::bf16> const&, cudaStream_t);
template std::size_t gemm_auto_workspace_bytes<plans::bf16, plans::MN, plans::K>(AutoGemmArguments<plans::bf16> const&);
template void run_gemm_choice<plans::bf16, plans::MN, plans::K>(GemmChoice const&, AutoGemmArguments<plans::bf16> const&, cudaStream_t);
template std::size_t gemm_choice_workspace_bytes<plans::bf16, plans::MN, plans::K>(GemmChoice const&, AutoGemmArguments<plans::bf16> const&);
template void run_gemm_auto_unchecked<plans::bf16, plans::MN, plans::K>(AutoGemmArguments<plans::bf16> const&, cudaStream_t);
template void run_gemm_choice_unchecked<plans::bf16, plans::MN, plans::K>(GemmChoice const&, AutoGemmArguments<plans::bf16> const&, cudaStream_t);

}  // namespace cute_cpp::kernels
