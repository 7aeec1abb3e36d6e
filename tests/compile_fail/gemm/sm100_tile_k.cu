// A bf16 K block of 128 elements spans 256 bytes: two swizzle rows, which one descriptor cannot read.
// cute-cpp-arch: 100a
// expected-error {{"gemm\.sm100\.tile-k.*BlockK=128, BytesA=2, BytesB=2"}}
#include <cute_cpp/kernels/gemm/gemm_plan_sm100.hpp>
namespace kn = cute_cpp::kernels;
using bf16 = __nv_bfloat16;
using Bad = kn::GemmSm100Plan<bf16, bf16, bf16, kn::GemmSm100Config{.block_k = 128}>;
static_assert(Bad::threads > 0);
