// The sm_100a GEMM has no FP8 C (no output scales).
// cute-cpp-arch: 100a
// expected-error {{"gemm\.sm100\.output"}}
#include <cute_cpp/kernels/gemm/gemm_plan_sm100.hpp>
#include <cuda_fp8.h>
namespace kn = cute_cpp::kernels;
using bf16 = __nv_bfloat16;
using Bad = kn::GemmSm100Plan<bf16, bf16, __nv_fp8_e4m3, kn::GemmSm100Config{}>;
static_assert(Bad::threads > 0);
