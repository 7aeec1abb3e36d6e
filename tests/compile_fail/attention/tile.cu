// S = Q Kᵀ is one wgmma of N = block_n: 272 keys per tile is past wgmma's 256.
// expected-error {{"attention\.tile"}}
#include <cute_cpp/kernels/attention/prefill/fmha.hpp>
#include <cuda_bf16.h>
namespace kn = cute_cpp::kernels;
using Bad = kn::FmhaPlan<__nv_bfloat16, 128, 128, kn::FmhaConfig{.block_n = 272}>;
static_assert(Bad::threads == 384);
