// 4-bit operands are K-major: an MN-major e2m1 B tile is rejected.
// cute-cpp-arch: 100a
// expected-error {{"umma\.major"}}
#include <cute_cpp/mma/sm100_umma.hpp>
namespace cc = cute_cpp;
namespace sm = cute_cpp::sm100;
using bf16 = __nv_bfloat16;
using E = __nv_fp8_e4m3;
using F = __nv_fp4_e2m1;
using Bad = sm::UmmaTiledMma<E, F, float, cc::SmemKMajor<E, 128, 128>, cc::SmemMNMajor<F, 128, 128>, 128, 128>;
static_assert(Bad::k_slices > 0);
