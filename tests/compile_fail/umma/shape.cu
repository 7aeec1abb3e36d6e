// N = 12 is no tcgen05.mma shape (steps of 8); the values are in the error.
// cute-cpp-arch: 100a
// expected-error {{"umma\.shape.*M=128, N=12"}}
#include <cute_cpp/mma/sm100_umma.hpp>
namespace cc = cute_cpp;
namespace sm = cute_cpp::sm100;
using bf16 = __nv_bfloat16;
using Bad = sm::UmmaTiledMma<bf16, bf16, float, cc::SmemKMajor<bf16, 128, 64>, cc::SmemKMajor<bf16, 12, 64>, 128, 12>;
static_assert(Bad::k_slices > 0);
