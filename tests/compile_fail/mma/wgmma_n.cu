// wgmma N must be a multiple of 8 in 8..256.
// expected-error {{"mma\.wgmma\.n.*\n.*\n.*Atoms=1, N=12"}}
#include <cute_cpp/mma/sm90_wgmma.hpp>
using T = __nv_bfloat16;
using Bad = cute_cpp::sm90::WgmmaTiledMma<T, T, float, cute_cpp::SmemKMajor<T, 64, 64>, cute_cpp::SmemKMajor<T, 16, 64>, 1, 12>;
static_assert(Bad::n == 12);
