// The GEMM takes clusters of at most 2 CTAs, along M or along N: 2 x 2 is refused.
// expected-error {{"gemm\.cluster"}}
#include <cute_cpp/kernels/gemm/gemm.hpp>
#include <cuda_bf16.h>
using T = __nv_bfloat16;
namespace kn = cute_cpp::kernels;
using Bad = kn::GemmPlan<T, T, T, kn::GemmConfig{.cluster_m = 2, .cluster_n = 2}>;
static_assert(Bad::threads == 384);
