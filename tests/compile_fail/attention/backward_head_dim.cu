// The backward's dK and dV live in registers: a head dim past 128 is refused where the plan is formed.
// expected-error {{"attention\.backward\.head-dim"}}
#include <cute_cpp/kernels/attention/backward/fmha_backward.hpp>
#include <cuda_bf16.h>
namespace kn = cute_cpp::kernels;
using Bad = kn::FmhaBackwardPlan<__nv_bfloat16, 256, kn::FmhaBackwardConfig{}>;
static_assert(Bad::threads == 384);
