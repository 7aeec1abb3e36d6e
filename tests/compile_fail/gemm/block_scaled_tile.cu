// Block scaling takes 128 x 128 x 128 tiles: 256 columns are refused (the promoted accumulator
// beside the K block's own would not fit a thread's registers).
// expected-error {{"gemm\.block-scaled"}}
#include "examples/gemm_sm90/gemm.hpp"
#include <cuda_bf16.h>
#include <cuda_fp8.h>
namespace ex = cute_cpp::examples;
using Bad = ex::GemmPlan<__nv_fp8_e4m3, __nv_fp8_e4m3, __nv_bfloat16,
                         ex::GemmConfig{.block_n = 256, .block_k = 128, .block_scaled = true}>;
static_assert(Bad::threads == 384);
