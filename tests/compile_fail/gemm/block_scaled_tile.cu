// Block scaling takes 128 x 128 x 128 tiles: 256 columns are refused (the promoted accumulator
// beside the K block's own would not fit a thread's registers).
// expected-error {{"gemm\.block-scaled"}}
#include <cute_cpp/kernels/gemm/gemm.hpp>
#include <cuda_bf16.h>
#include <cuda_fp8.h>
namespace kn = cute_cpp::kernels;
using Bad = kn::GemmPlan<__nv_fp8_e4m3, __nv_fp8_e4m3, __nv_bfloat16,
                         kn::GemmConfig{.block_n = 256, .block_k = 128, .block_scaled = true}>;
static_assert(Bad::threads == 384);
