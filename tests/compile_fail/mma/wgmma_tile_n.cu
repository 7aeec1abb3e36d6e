// A tile wider than 256 is cut into equal wgmma atoms; with an MN-major B each atom must cover
// whole 64-column boxes (320 = 2 x 160 does not).
// expected-error {{"mma\.wgmma\.tile-n.*\n.*\n.*N=320, Atoms=2, RowStep=64"}}
#include <cute_cpp/mma/sm90_wgmma.hpp>
using T = __nv_bfloat16;
using Bad = cute_cpp::sm90::WgmmaTiledMma<T, T, float, cute_cpp::SmemKMajor<T, 64, 64>, cute_cpp::SmemMNMajor<T, 320, 64>, 1, 320>;
static_assert(Bad::n == 320);
