// staged_scales on a grouped plan is refused: the scale warp walks dense tiles, not a grouped
// plan's groups (their rows and B scales come from the group table).
// expected-error {{"gemm\.block-scaled\.options.*\[with BlockScaled=true, Overlap=false, Staged=true, Grouped=true"}}
#include <cute_cpp/kernels/gemm/gemm.hpp>
#include <cuda_bf16.h>
#include <cuda_fp8.h>
namespace kn = cute_cpp::kernels;
using Bad = kn::GemmPlan<__nv_fp8_e4m3, __nv_fp8_e4m3, __nv_bfloat16,
                         kn::GemmConfig{.block_n = 128, .block_k = 128, .stages = 5, .block_scaled = true,
                                        .grouped = true, .staged_scales = true}>;
static_assert(Bad::threads == 384);
