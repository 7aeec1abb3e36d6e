// Two-level accumulation in the per-tensor plan's 128 x 256 tile is refused: the accumulator and
// one product set are 2 x 128 floats a consumer thread, past the 192 the promotion rule leaves.
// expected-error {{"gemm\.block-scaled\.registers.*\[with BlockN=256, BlockM=128, ProductSets=1\]"}}
#include <cute_cpp/kernels/gemm/gemm.hpp>
#include <cuda_bf16.h>
#include <cuda_fp8.h>
namespace kn = cute_cpp::kernels;
using Bad = kn::GemmPlan<__nv_fp8_e4m3, __nv_fp8_e4m3, __nv_bfloat16,
                         kn::GemmConfig{.block_k = 128, .stages = 4, .cluster_m = 2, .two_level_accumulation = true}>;
static_assert(Bad::threads == 384);
