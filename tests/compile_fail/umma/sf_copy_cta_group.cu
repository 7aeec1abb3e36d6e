// The scale-factor copy helper serves one-CTA plans.
// cute-cpp-arch: 100a
// expected-error {{"umma\.sf-copy\.cta-group"}}
#include <cute_cpp/mma/sm100_umma.hpp>
namespace cc = cute_cpp;
namespace sm = cute_cpp::sm100;
using bf16 = __nv_bfloat16;
using L = sm::UmmaScaleFactorLayout<128, 128, 32, 1>;
__global__ void k(std::uint32_t smem, std::uint32_t tmem) { L::copy<2>(smem, tmem); }
