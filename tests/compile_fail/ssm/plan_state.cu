// A state size of 48 is not a multiple of 32: the decode step's lanes would not split a state row.
// expected-error {{"ssm\.plan\.state.*\[with State=48\]"}}
#include <cute_cpp/kernels/ssm/ssm_plan.hpp>
namespace kn = cute_cpp::kernels;
using Bad = kn::SsdPlan<64, 48, 128>;
static_assert(Bad::threads > 0);
