// Block scaling of 256-column tiles is refused: the promoted accumulator beside the K block's own
// (2 x 128 floats a thread) would not fit a thread's registers.
// expected-error {{"gemm\.block-scaled\.registers.*\[with BlockN=256, BlockM=128, ProductSets=1\]"}}
#include <cute_cpp/kernels/gemm/gemm.hpp>
#include <cuda_bf16.h>
#include <cuda_fp8.h>
namespace kn = cute_cpp::kernels;
using Bad = kn::GemmPlan<__nv_fp8_e4m3, __nv_fp8_e4m3, __nv_bfloat16,
                         kn::GemmConfig{.block_n = 256, .block_k = 128, .block_scaled = true}>;
static_assert(Bad::threads == 384);
