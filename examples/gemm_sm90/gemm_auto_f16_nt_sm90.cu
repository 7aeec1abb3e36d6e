// SPDX-License-Identifier: Apache-2.0
// The tile heuristic's dispatch for f16, A and B M/N-major (NT), and that TileFamily's plans
// (each explicitly: a plan only instantiated along the way leaves no symbol to link).
#include "gemm_auto.cuh"

namespace cute_cpp::examples {

using Family = plans::TileFamily<plans::f16, plans::MN, plans::MN>;
template void run_gemm<Family::n256>(GemmArguments<Family::n256> const&, cudaStream_t);
template void run_gemm<Family::n128>(GemmArguments<Family::n128> const&, cudaStream_t);
template void run_gemm<Family::n256c1>(GemmArguments<Family::n256c1> const&, cudaStream_t);
template void run_gemm<Family::n128c1>(GemmArguments<Family::n128c1> const&, cudaStream_t);
template void run_gemm<Family::n64c1>(GemmArguments<Family::n64c1> const&, cudaStream_t);
template void run_gemm<Family::swap64>(GemmArguments<Family::swap64> const&, cudaStream_t);
template void run_gemm<Family::simt>(GemmArguments<Family::simt> const&, cudaStream_t);
template std::size_t gemm_workspace_bytes<Family::n256>(GemmArguments<Family::n256> const&);
template std::size_t gemm_workspace_bytes<Family::n128>(GemmArguments<Family::n128> const&);
template std::size_t gemm_workspace_bytes<Family::n256c1>(GemmArguments<Family::n256c1> const&);
template std::size_t gemm_workspace_bytes<Family::n128c1>(GemmArguments<Family::n128c1> const&);
template std::size_t gemm_workspace_bytes<Family::n64c1>(GemmArguments<Family::n64c1> const&);
template std::size_t gemm_workspace_bytes<Family::swap64>(GemmArguments<Family::swap64> const&);
template std::size_t gemm_workspace_bytes<Family::simt>(GemmArguments<Family::simt> const&);
template void run_gemm_auto<plans::f16, plans::MN, plans::MN>(AutoGemmArguments<plans::f16> const&, cudaStream_t);
template std::size_t gemm_auto_workspace_bytes<plans::f16, plans::MN, plans::MN>(AutoGemmArguments<plans::f16> const&);

}  // namespace cute_cpp::examples
