// bf16 A with f16 B names no tcgen05.mma kind.
// cute-cpp-arch: 100a
// expected-error {{"umma\.types"}}
#include <cute_cpp/mma/sm100_umma.hpp>
namespace cc = cute_cpp;
namespace sm = cute_cpp::sm100;
using bf16 = __nv_bfloat16;
using Bad = sm::UmmaTiledMma<bf16, __half, float, cc::SmemKMajor<bf16, 128, 64>, cc::SmemKMajor<__half, 128, 64>, 128, 128>;
static_assert(Bad::k_slices > 0);
