// A depthwise kernel of 17 does not fit the register window (1..16).
// expected-error {{"conv\.plan\.depthwise-kernel.*\[with Kernel=17\]"}}
#include <cute_cpp/kernels/conv/conv_plan.hpp>
namespace kn = cute_cpp::kernels;
using Bad = kn::DepthwiseConvPlan<17>;
static_assert(Bad::kernel > 0);
