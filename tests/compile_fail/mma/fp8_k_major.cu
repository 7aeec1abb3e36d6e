// 8-bit wgmma operands must be K-major: an M-major e4m3 A tile is rejected.
// expected-error {{"mma\.wgmma\.fp8-k-major.*\n.*\n.*AKMajor=false, BKMajor=true, ElemBytes=1"}}
#include <cute_cpp/mma/sm90_wgmma.hpp>
using T = __nv_fp8_e4m3;
using Bad = cute_cpp::sm90::WgmmaTiledMma<T, T, float, cute_cpp::SmemMNMajor<T, 128, 128>,
                                          cute_cpp::SmemKMajor<T, 128, 128>, 1, 128>;
static_assert(Bad::n == 128);
