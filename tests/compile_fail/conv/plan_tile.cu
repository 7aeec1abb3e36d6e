// A 96-step tile over 4 warps in M: 24 rows a warp is not whole 16-row mma.sync pieces.
// expected-error {{"conv\.plan\.tile.*\[with TileM=96, TileN=128, WarpsM=4, WarpsN=2\]"}}
#include <cute_cpp/kernels/conv/conv_plan.hpp>
namespace kn = cute_cpp::kernels;
using Bad = kn::ConvGemmPlan<96, 128, 4, 2, 3>;
static_assert(Bad::threads > 0);
