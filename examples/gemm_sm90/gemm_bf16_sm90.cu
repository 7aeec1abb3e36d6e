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
template void run_gemm<plans::Bf16TN128>(GemmArguments<plans::Bf16TN128> const&, cudaStream_t);
template void run_gemm<plans::Bf16TN64>(GemmArguments<plans::Bf16TN64> const&, cudaStream_t);

void run_gemm_bf16_tn(GemmArguments<plans::Bf16TN> const& args, cudaStream_t stream) {
  static int const sms = host::multiprocessor_count();
  switch (choose_gemm_tile(args.m, args.n, sms)) {
    case GemmTile::n256: return run_gemm<plans::Bf16TN>(args, stream);
    case GemmTile::n128: return run_gemm<plans::Bf16TN128>(rebind_arguments<plans::Bf16TN128>(args), stream);
    case GemmTile::n64: return run_gemm<plans::Bf16TN64>(rebind_arguments<plans::Bf16TN64>(args), stream);
  }
}
}  // namespace cute_cpp::examples
