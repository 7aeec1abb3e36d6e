// A head dim that is not whole 64-column swizzle rows is refused where the plan is formed.
// expected-error {{"attention\.head-dim"}}
#include "examples/fmha_sm90/fmha.hpp"
#include <cuda_bf16.h>
namespace ex = cute_cpp::examples;
using Bad = ex::FmhaPlan<__nv_bfloat16, 96, 96, ex::FmhaConfig{}>;
static_assert(Bad::threads == 384);
