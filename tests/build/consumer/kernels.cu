// SPDX-License-Identifier: Apache-2.0
// The README's first snippets against the installed package: a row kernel's header
// (<cute_cpp/kernels/rows/...>, any target) and, where the package carries sm_90a, the GEMM's
// library (cute_cpp::gemm) called as a user would. Without a GPU, a call with bad arguments must
// fail with its rule before touching a device.
#include <cute_cpp/kernels/rows/elementwise.cuh>
#if defined(CONSUMER_HAS_GEMM)
#  include <cute_cpp/kernels/gemm/gemm.hpp>
#  include <cute_cpp/kernels/gemm/plans.hpp>
#endif

#include <cuda_bf16.h>

#include <cstdio>
#include <stdexcept>
#include <string>

struct Silu {
  CUTE_CPP_HD float operator()(__nv_bfloat16 x) const {
    float const v = static_cast<float>(x);
    return v / (1.0f + ::expf(-v));
  }
};

int main() {
  // y = silu(x) for n = 0: nothing to do, no device touched (the template instantiates its kernel).
  cute_cpp::kernels::elementwise_apply(Silu{}, 0, nullptr, static_cast<__nv_bfloat16*>(nullptr),
                                       static_cast<__nv_bfloat16 const*>(nullptr));
#if defined(CONSUMER_HAS_GEMM)
  namespace kn = cute_cpp::kernels;
  kn::GemmArguments<kn::plans::Bf16TN> args;  // no pointers: [gemm.pointers] before any device call
  args.m = args.n = args.k = 64;
  args.lda = args.ldb = args.ldc = 64;
  try {
    kn::run_gemm_bf16_tn(args, nullptr);
    std::puts("run_gemm_bf16_tn accepted null pointers");
    return 1;
  } catch (std::invalid_argument const& e) {
    if (std::string(e.what()).find("gemm.pointers") == std::string::npos) {
      std::printf("run_gemm_bf16_tn: unexpected error: %s\n", e.what());
      return 1;
    }
    std::printf("run_gemm_bf16_tn refused null pointers: %s\n", e.what());
  }
#endif
  return 0;
}
