// This tiled MMA accumulates in float only.
// expected-error {{"mma\.wgmma\.accumulator"}}
#include <cute_cpp/mma/sm90_wgmma.hpp>
using T = __nv_bfloat16;
using Bad = cute_cpp::sm90::WgmmaTiledMma<T, T, double, cute_cpp::SmemKMajor<T, 64, 64>, cute_cpp::SmemKMajor<T, 64, 64>, 1, 64>;
static_assert(Bad::n == 64);
