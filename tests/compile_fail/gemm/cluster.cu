// The GEMM takes clusters of 1 or 2 CTAs along M and along N: 4 along M is refused.
// expected-error {{"gemm\.cluster"}}
#include <cute_cpp/kernels/gemm/gemm.hpp>
#include <cuda_bf16.h>
using T = __nv_bfloat16;
namespace kn = cute_cpp::kernels;
using Bad = kn::GemmPlan<T, T, T, kn::GemmConfig{.cluster_m = 4}>;
static_assert(Bad::threads == 384);
