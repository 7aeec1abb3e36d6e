// P 64 x N 256: a chunk-state thread would hold 64 accumulators (the limit is 32).
// expected-error {{"ssm\.plan\.registers.*\[with HeadDim=64, State=256\]"}}
#include <cute_cpp/kernels/ssm/ssm_plan.hpp>
namespace kn = cute_cpp::kernels;
using Bad = kn::SsdPlan<64, 256, 128>;
static_assert(Bad::threads > 0);
