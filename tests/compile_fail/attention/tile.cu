// S = Q Kᵀ is one wgmma of N = block_n: 272 keys per tile is past wgmma's 256.
// expected-error {{"attention\.tile"}}
#include "examples/fmha_sm90/fmha.hpp"
#include <cuda_bf16.h>
namespace ex = cute_cpp::examples;
using Bad = ex::FmhaPlan<__nv_bfloat16, 128, 128, ex::FmhaConfig{.block_n = 272}>;
static_assert(Bad::threads == 384);
