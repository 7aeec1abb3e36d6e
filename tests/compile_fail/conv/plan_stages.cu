// A cp.async ring of 1 stage cannot overlap the copies with the MMAs (2..4).
// expected-error {{"conv\.plan\.stages.*\[with Stages=1\]"}}
#include <cute_cpp/kernels/conv/conv_plan.hpp>
namespace kn = cute_cpp::kernels;
using Bad = kn::ConvGemmPlan<128, 128, 4, 2, 1>;
static_assert(Bad::threads > 0);
