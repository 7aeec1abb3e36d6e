// A conv kernel of width 9 does not fit the register window (2..8).
// expected-error {{"ssm\.plan\.conv-width.*\[with Width=9\]"}}
#include <cute_cpp/kernels/ssm/ssm_plan.hpp>
namespace kn = cute_cpp::kernels;
using Bad = kn::ConvPlan<9>;
static_assert(Bad::width > 0);
