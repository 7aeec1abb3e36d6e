// A K-major fp8 tile 16 elements deep is shorter than one fp8 wgmma (K = 32).
// expected-error {{"mma\.wgmma\.tile-k.*TileK=16, AtomK=32"}}
#include <cute_cpp/mma/sm90_wgmma.hpp>
using T = __nv_fp8_e4m3;
using Bad = cute_cpp::sm90::WgmmaTiledMma<T, T, float, cute_cpp::SmemKMajor<T, 64, 16, 0>, cute_cpp::SmemKMajor<T, 64, 16, 0>, 1, 64>;
static_assert(Bad::n == 64);
