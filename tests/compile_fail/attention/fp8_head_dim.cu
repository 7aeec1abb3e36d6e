// The FP8 forward reads e4m3 tiles in 128-byte boxes and keeps D256's registers out of reach in
// 128-key tiles: head dim 64 is refused where the plan is formed.
// expected-error {{"attention\.fp8\.head-dim"}}
#include <cute_cpp/kernels/attention/prefill/fmha_fp8.hpp>
namespace kn = cute_cpp::kernels;
using Bad = kn::FmhaFp8Plan<64, kn::FmhaFp8Config{}>;
static_assert(Bad::threads > 0);
