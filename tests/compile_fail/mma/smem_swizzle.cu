// An unswizzled row-major tile is not a wgmma operand layout here.
// expected-error {{"mma\.wgmma\.smem-swizzle.*\n.*\n.*SwizzleBytes=0"}}
#include <cute_cpp/mma/sm90_wgmma.hpp>
using T = __nv_bfloat16;
using Bad = cute_cpp::sm90::WgmmaTiledMma<T, T, float, cute_cpp::RowMajor<64, 64>, cute_cpp::SmemKMajor<T, 64, 64>, 1, 64>;
static_assert(Bad::n == 64);
