// A CTA pair computes M = 128 or 256; the values are in the error.
// cute-cpp-arch: 100a
// expected-error {{"umma\.pair-m.*CtaGroup=2, M=64"}}
#include <cute_cpp/mma/sm100_umma.hpp>
namespace cc = cute_cpp;
namespace sm = cute_cpp::sm100;
using bf16 = __nv_bfloat16;
using Bad = sm::UmmaTiledMma<bf16, bf16, float, cc::SmemKMajor<bf16, 32, 64>, cc::SmemKMajor<bf16, 64, 64>, 64, 128, 2>;
static_assert(Bad::k_slices > 0);
