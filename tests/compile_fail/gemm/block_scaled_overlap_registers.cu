// The overlapped promotion of 144-column tiles is refused: the promoted accumulator and two product
// sets are 3 x 72 = 216 floats a thread, past the 192 the rule leaves beside scales and addresses.
// expected-error {{"gemm\.block-scaled\.registers.*\[with BlockN=144, BlockM=128, ProductSets=2\]"}}
#include <cute_cpp/kernels/gemm/gemm.hpp>
#include <cuda_bf16.h>
#include <cuda_fp8.h>
namespace kn = cute_cpp::kernels;
using Bad = kn::GemmPlan<__nv_fp8_e4m3, __nv_fp8_e4m3, __nv_bfloat16,
                         kn::GemmConfig{.block_n = 144, .block_k = 128, .stages = 6, .block_scaled = true,
                                        .overlap_promotion = true}>;
static_assert(Bad::threads == 384);
