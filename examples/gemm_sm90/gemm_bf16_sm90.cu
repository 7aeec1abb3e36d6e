// SPDX-License-Identifier: Apache-2.0
// The bf16 GEMMs for sm_90a: every operand major-ness, and the tile heuristic's dispatch.
#include "gemm_sm90.cuh"
#include "gemm_tuner.hpp"
#include "plans.hpp"

#include <algorithm>

namespace cute_cpp::examples {

template void run_gemm<plans::Bf16TN>(GemmArguments<plans::Bf16TN> const&, cudaStream_t);
template void run_gemm<plans::Bf16NN>(GemmArguments<plans::Bf16NN> const&, cudaStream_t);
template void run_gemm<plans::Bf16TT>(GemmArguments<plans::Bf16TT> const&, cudaStream_t);
template void run_gemm<plans::Bf16NT>(GemmArguments<plans::Bf16NT> const&, cudaStream_t);
template void run_gemm<plans::Bf16TNNoCluster>(GemmArguments<plans::Bf16TNNoCluster> const&, cudaStream_t);
template void run_gemm<plans::Bf16TN128>(GemmArguments<plans::Bf16TN128> const&, cudaStream_t);
template void run_gemm<plans::Bf16TN64>(GemmArguments<plans::Bf16TN64> const&, cudaStream_t);
template void run_gemm<plans::Bf16TN128NoCluster>(GemmArguments<plans::Bf16TN128NoCluster> const&, cudaStream_t);
template void run_gemm<plans::Bf16TN64NoCluster>(GemmArguments<plans::Bf16TN64NoCluster> const&, cudaStream_t);
template void run_gemm<plans::Bf16TNPingPong>(GemmArguments<plans::Bf16TNPingPong> const&, cudaStream_t);
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
extern template void run_gemm<plans::Bf16TN112NoCluster>(GemmArguments<plans::Bf16TN112NoCluster> const&, cudaStream_t);
extern template void run_gemm<plans::Bf16TN112ClusterN>(GemmArguments<plans::Bf16TN112ClusterN> const&, cudaStream_t);
extern template void run_gemm<plans::Bf16TNSwap16>(GemmArguments<plans::Bf16TNSwap16> const&, cudaStream_t);
extern template void run_gemm<plans::Bf16TNSwap32>(GemmArguments<plans::Bf16TNSwap32> const&, cudaStream_t);
extern template void run_gemm<plans::Bf16TNSwap64>(GemmArguments<plans::Bf16TNSwap64> const&, cudaStream_t);
extern template void run_gemm<plans::Bf16TNSwap128c2>(GemmArguments<plans::Bf16TNSwap128c2> const&, cudaStream_t);
extern template std::size_t gemm_workspace_bytes<plans::Bf16TN112NoCluster>(GemmArguments<plans::Bf16TN112NoCluster> const&);
extern template std::size_t gemm_workspace_bytes<plans::Bf16TN112ClusterN>(GemmArguments<plans::Bf16TN112ClusterN> const&);
extern template std::size_t gemm_workspace_bytes<plans::Bf16TNSwap16>(GemmArguments<plans::Bf16TNSwap16> const&);
extern template std::size_t gemm_workspace_bytes<plans::Bf16TNSwap32>(GemmArguments<plans::Bf16TNSwap32> const&);
extern template std::size_t gemm_workspace_bytes<plans::Bf16TNSwap64>(GemmArguments<plans::Bf16TNSwap64> const&);
extern template std::size_t gemm_workspace_bytes<plans::Bf16TNSwap128c2>(GemmArguments<plans::Bf16TNSwap128c2> const&);

void run_gemm_bf16_tn(GemmArguments<plans::Bf16TN> const& args, cudaStream_t stream) {
  if (gemm_tuning_enabled()) return GemmTuner::process().run(args, stream);
  // Checked before the plan choice, which asks the device for its SM count.
  check_gemm_arguments(args, plans::Bf16TN::major_a, plans::Bf16TN::major_b, plans::Bf16TN::layout_c, false);
  with_chosen_plan(args, [&]<class P>(std::type_identity<P>, auto const& a) { run_gemm<P>(a, stream); });
}

std::size_t gemm_bf16_tn_workspace_bytes(GemmArguments<plans::Bf16TN> const& args) {
  auto const bytes = [&]<class P>(std::type_identity<P>, auto const& a) { return gemm_workspace_bytes<P>(a); };
  if (!gemm_tuning_enabled()) return with_chosen_plan(args, bytes);
  // Tuned, any tile may run: the most any of them needs.
  std::size_t most = 0;
  for (auto const& [tile, name] : gemm_tile_names) most = std::max(most, with_tile_plan(tile, args, bytes));
  return most;
}

}  // namespace cute_cpp::examples
