// Two 64-row atoms read 128 rows of A, but the A tile holds 64.
// expected-error {{"mma\.wgmma\.operand-extent.*TileRows=64, Needed=128"}}
#include <cute_cpp/mma/sm90_wgmma.hpp>
using T = __nv_bfloat16;
using Bad = cute_cpp::sm90::WgmmaTiledMma<T, T, float, cute_cpp::SmemKMajor<T, 64, 64>, cute_cpp::SmemKMajor<T, 64, 64>, 2, 64>;
static_assert(Bad::n == 64);
