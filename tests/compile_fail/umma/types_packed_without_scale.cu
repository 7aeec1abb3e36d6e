// Packed e2m1 pairs are read by the block-scaled kinds only.
// cute-cpp-arch: 100a
// expected-error {{"umma\.types"}}
#include <cute_cpp/mma/sm100_umma.hpp>
namespace cc = cute_cpp;
namespace sm = cute_cpp::sm100;
using bf16 = __nv_bfloat16;
using P = __nv_fp4x2_e2m1;
using Bad = sm::UmmaTiledMma<P, P, float, cc::SmemKMajor<P, 128, 128>, cc::SmemKMajor<P, 128, 128>, 128, 128>;
static_assert(Bad::k_slices > 0);
