// A K-major tile must be swizzled: rows of 64 unswizzled bf16 are no canonical tcgen05 layout.
// cute-cpp-arch: 100a
// expected-error {{"umma\.smem-layout"}}
#include <cute_cpp/mma/sm100_umma.hpp>
namespace cc = cute_cpp;
namespace sm = cute_cpp::sm100;
using bf16 = __nv_bfloat16;
using Bad = sm::UmmaTiledMma<bf16, bf16, float, cc::RowMajor<128, 64>, cc::SmemKMajor<bf16, 128, 64>, 128, 128>;
static_assert(Bad::k_slices > 0);
