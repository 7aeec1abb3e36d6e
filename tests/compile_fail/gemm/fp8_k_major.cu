// wgmma reads 8-bit operands K-major only: an FP8 plan with an M-major A is refused.
// expected-error {{"gemm\.fp8-k-major"}}
#include <cute_cpp/kernels/gemm/gemm.hpp>
#include <cuda_bf16.h>
#include <cuda_fp8.h>
namespace kn = cute_cpp::kernels;
using Bad = kn::GemmPlan<__nv_fp8_e4m3, __nv_fp8_e4m3, __nv_bfloat16,
                         kn::GemmConfig{.block_k = 128, .major_a = cute_cpp::OperandMajorMode::MN}>;
static_assert(Bad::threads == 384);
