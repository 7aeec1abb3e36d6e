// Stride 4 with kernel 6: the output phases would not have the same number of taps.
// expected-error {{"conv\.plan\.transposed-kernel.*\[with Stride=4, KernelSize=6\]"}}
#include <cute_cpp/kernels/conv/conv_plan.hpp>
namespace kn = cute_cpp::kernels;
using Bad = kn::ConvTransposePlan<4, 6>;
static_assert(Bad::taps > 0);
