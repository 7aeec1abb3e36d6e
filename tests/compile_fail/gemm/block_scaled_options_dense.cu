// overlap_promotion on a plan that does not scale by blocks is refused: there is no promotion.
// expected-error {{"gemm\.block-scaled\.options.*\[with BlockScaled=false, Overlap=true"}}
#include <cute_cpp/kernels/gemm/gemm.hpp>
#include <cuda_bf16.h>
namespace kn = cute_cpp::kernels;
using T = __nv_bfloat16;
using Bad = kn::GemmPlan<T, T, T, kn::GemmConfig{.stages = 4, .overlap_promotion = true}>;
static_assert(Bad::threads == 384);
