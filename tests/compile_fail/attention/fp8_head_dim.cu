// The FP8 forward's D256 in 128-key tiles would spill (S, O and P: 208 registers a thread of the
// consumers' 232): D256 with the default 128-key tile is refused where the plan is formed.
// expected-error {{"attention\.fp8\.head-dim"}}
#include <cute_cpp/kernels/attention/prefill/fmha_fp8.hpp>
namespace kn = cute_cpp::kernels;
using Bad = kn::FmhaFp8Plan<256, kn::FmhaFp8Config{}>;
static_assert(Bad::threads > 0);
