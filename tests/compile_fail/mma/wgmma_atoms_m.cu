// A warpgroup MMA of zero 64-row atoms.
// expected-error {{"mma\.wgmma\.atoms-m.*Atoms=0, N=64"}}
#include <cute_cpp/mma/sm90_wgmma.hpp>
using T = __nv_bfloat16;
using Bad = cute_cpp::sm90::WgmmaTiledMma<T, T, float, cute_cpp::SmemKMajor<T, 64, 64>, cute_cpp::SmemKMajor<T, 64, 64>, 0, 64>;
static_assert(Bad::n == 64);
