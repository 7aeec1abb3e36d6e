// 200 columns are no whole number of 16-column epilogue copies.
// cute-cpp-arch: 100a
// expected-error {{"gemm\.sm100\.tile-n.*BlockN=200, AtomsN=1"}}
#include <cute_cpp/kernels/gemm/gemm_plan_sm100.hpp>
namespace kn = cute_cpp::kernels;
using bf16 = __nv_bfloat16;
using Bad = kn::GemmSm100Plan<bf16, bf16, bf16, kn::GemmSm100Config{.block_n = 200}>;
static_assert(Bad::threads > 0);
