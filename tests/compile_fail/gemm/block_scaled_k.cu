// A block-scaled plan in K blocks of 64 is refused: a K block must be one scale block (128 of K).
// expected-error {{"gemm\.block-scaled\]"}}
#include <cute_cpp/kernels/gemm/gemm.hpp>
#include <cuda_bf16.h>
#include <cuda_fp8.h>
namespace kn = cute_cpp::kernels;
using Bad = kn::GemmPlan<__nv_fp8_e4m3, __nv_fp8_e4m3, __nv_bfloat16,
                         kn::GemmConfig{.block_n = 128, .block_k = 64, .stages = 6, .block_scaled = true}>;
static_assert(Bad::threads == 384);
