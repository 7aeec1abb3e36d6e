// SPDX-License-Identifier: Apache-2.0
// The tile heuristic's dispatch for f16, A and B K-major (TN), and that TileFamily's plans
// (each explicitly: a plan only instantiated along the way leaves no symbol to link).
#include "gemm_auto.cuh"

namespace cute_cpp::examples {

// Its 128 x 256 tile is instantiated in gemm_types_sm90.cu.
extern template void run_gemm<plans::F16TN>(GemmArguments<plans::F16TN> const&, cudaStream_t);
extern template std::size_t gemm_workspace_bytes<plans::F16TN>(GemmArguments<plans::F16TN> const&);
using Family = plans::TileFamily<plans::f16, plans::K, plans::K>;
template void run_gemm<Family::n128>(GemmArguments<Family::n128> const&, cudaStream_t);
template void run_gemm<Family::n64>(GemmArguments<Family::n64> const&, cudaStream_t);
template void run_gemm<Family::n256c1>(GemmArguments<Family::n256c1> const&, cudaStream_t);
template void run_gemm<Family::n128c1>(GemmArguments<Family::n128c1> const&, cudaStream_t);
template void run_gemm<Family::n112cn2>(GemmArguments<Family::n112cn2> const&, cudaStream_t);
template void run_gemm<Family::n64c1>(GemmArguments<Family::n64c1> const&, cudaStream_t);
template void run_gemm<Family::swap16>(GemmArguments<Family::swap16> const&, cudaStream_t);
template void run_gemm<Family::swap32>(GemmArguments<Family::swap32> const&, cudaStream_t);
template void run_gemm<Family::swap64>(GemmArguments<Family::swap64> const&, cudaStream_t);
template void run_gemm<Family::simt>(GemmArguments<Family::simt> const&, cudaStream_t);
template std::size_t gemm_workspace_bytes<Family::n128>(GemmArguments<Family::n128> const&);
template std::size_t gemm_workspace_bytes<Family::n64>(GemmArguments<Family::n64> const&);
template std::size_t gemm_workspace_bytes<Family::n256c1>(GemmArguments<Family::n256c1> const&);
template std::size_t gemm_workspace_bytes<Family::n128c1>(GemmArguments<Family::n128c1> const&);
template std::size_t gemm_workspace_bytes<Family::n112cn2>(GemmArguments<Family::n112cn2> const&);
template std::size_t gemm_workspace_bytes<Family::n64c1>(GemmArguments<Family::n64c1> const&);
template std::size_t gemm_workspace_bytes<Family::swap16>(GemmArguments<Family::swap16> const&);
template std::size_t gemm_workspace_bytes<Family::swap32>(GemmArguments<Family::swap32> const&);
template std::size_t gemm_workspace_bytes<Family::swap64>(GemmArguments<Family::swap64> const&);
template std::size_t gemm_workspace_bytes<Family::simt>(GemmArguments<Family::simt> const&);
template void run_gemm_auto<plans::f16, plans::K, plans::K>(AutoGemmArguments<plans::f16> const&, cudaStream_t);
template std::size_t gemm_auto_workspace_bytes<plans::f16, plans::K, plans::K>(AutoGemmArguments<plans::f16> const&);

}  // namespace cute_cpp::examples
