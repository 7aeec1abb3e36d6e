// A 176-column block-scaled tile is refused: tile 3 starts at column 528, 16 into a scale block of
// B, so its columns 16..191 of that block reach a third block (176 > 128 + gcd(176, 128) = 144).
// expected-error {{"gemm\.block-scaled\.tile-n.*\[with BlockN=176\]"}}
#include <cute_cpp/kernels/gemm/gemm.hpp>
#include <cuda_bf16.h>
#include <cuda_fp8.h>
namespace kn = cute_cpp::kernels;
using Bad = kn::GemmPlan<__nv_fp8_e4m3, __nv_fp8_e4m3, __nv_bfloat16,
                         kn::GemmConfig{.block_n = 176, .block_k = 128, .stages = 4, .block_scaled = true}>;
static_assert(Bad::threads == 384);
