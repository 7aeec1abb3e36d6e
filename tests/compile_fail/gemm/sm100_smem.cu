// Five stages of 48 KB (a 128 x 256 tile's A and B K blocks) need 240 KB: more than a CTA's 227 KB.
// cute-cpp-arch: 100a
// expected-error {{"gemm\.sm100\.smem.*Stages=5, StageBytes=49152"}}
#include <cute_cpp/kernels/gemm/gemm_plan_sm100.hpp>
namespace kn = cute_cpp::kernels;
using bf16 = __nv_bfloat16;
using Bad = kn::GemmSm100Plan<bf16, bf16, bf16, kn::GemmSm100Config{.block_n = 256, .stages = 5}>;
static_assert(Bad::threads > 0);
