// A head dim that is not whole 64-column swizzle rows is refused where the plan is formed.
// expected-error {{"attention\.head-dim"}}
#include <cute_cpp/kernels/attention/prefill/fmha.hpp>
#include <cuda_bf16.h>
namespace kn = cute_cpp::kernels;
using Bad = kn::FmhaPlan<__nv_bfloat16, 96, 96, kn::FmhaConfig{}>;
static_assert(Bad::threads == 384);
