// The FP8 forward's Vᵀ rows are one swizzle row of keys (64 or 128 bytes): 96-key tiles are refused.
// expected-error {{"attention\.fp8\.tile"}}
#include <cute_cpp/kernels/attention/prefill/fmha_fp8.hpp>
namespace kn = cute_cpp::kernels;
using Bad = kn::FmhaFp8Plan<128, kn::FmhaFp8Config{.block_n = 96}>;
static_assert(Bad::threads > 0);
