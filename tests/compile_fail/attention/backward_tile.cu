// A backward CTA takes 64 keys a consumer warpgroup, at most two: 192 keys are refused.
// expected-error {{"attention\.backward\.tile"}}
#include <cute_cpp/kernels/attention/backward/fmha_backward.hpp>
#include <cuda_bf16.h>
namespace kn = cute_cpp::kernels;
using Bad = kn::FmhaBackwardPlan<__nv_bfloat16, 128, kn::FmhaBackwardConfig{.block_n = 192}>;
static_assert(Bad::threads == 512);
