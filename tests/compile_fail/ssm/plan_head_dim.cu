// A head dimension of 80 is past the output kernel's static shared memory (P <= 64).
// expected-error {{"ssm\.plan\.head-dim.*\[with HeadDim=80\]"}}
#include <cute_cpp/kernels/ssm/ssm_plan.hpp>
namespace kn = cute_cpp::kernels;
using Bad = kn::SsdPlan<80, 64, 128>;
static_assert(Bad::threads > 0);
