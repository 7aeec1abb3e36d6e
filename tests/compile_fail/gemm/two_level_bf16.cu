// Two-level accumulation on bf16 operands is refused: wgmma accumulates 16-bit products in fp32,
// so there is nothing to promote (the option is FP8's).
// expected-error {{"gemm\.two-level.*\[with TwoLevel=true, BytesA=2, BytesB=2, BlockK=128"}}
#include <cute_cpp/kernels/gemm/gemm.hpp>
#include <cuda_bf16.h>
namespace kn = cute_cpp::kernels;
using T = __nv_bfloat16;
using Bad = kn::GemmPlan<T, T, T, kn::GemmConfig{.block_n = 128, .block_k = 128, .stages = 3,
                                                 .two_level_accumulation = true}>;
static_assert(Bad::threads == 384);
