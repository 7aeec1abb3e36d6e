// Block-scaled kinds on one CTA need M = 128.
// cute-cpp-arch: 100a
// expected-error {{"umma\.shape"}}
#include <cute_cpp/mma/sm100_umma.hpp>
namespace cc = cute_cpp;
namespace sm = cute_cpp::sm100;
using bf16 = __nv_bfloat16;
using E = __nv_fp8_e4m3;
using Bad = sm::UmmaTiledMma<E, E, float, cc::SmemKMajor<E, 64, 128>, cc::SmemKMajor<E, 64, 128>, 64, 64, 1,
                             sm::UmmaBlockScale<__nv_fp8_e8m0, 32>>;
static_assert(Bad::k_slices > 0);
