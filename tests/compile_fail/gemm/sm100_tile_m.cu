// A pair (cta_group 2) computes 128 rows in each CTA: a 128-row tile on a pair is refused.
// cute-cpp-arch: 100a
// expected-error {{"gemm\.sm100\.tile-m.*CtaGroup=2, BlockM=128"}}
#include <cute_cpp/kernels/gemm/gemm_plan_sm100.hpp>
namespace kn = cute_cpp::kernels;
using bf16 = __nv_bfloat16;
using Bad = kn::GemmSm100Plan<bf16, bf16, bf16, kn::GemmSm100Config{.block_m = 128, .cta_group = 2}>;
static_assert(Bad::threads > 0);
