// A chunk of 256 tokens: its (L, 32) tiles of C and B overflow static shared memory.
// expected-error {{"ssm\.plan\.chunk.*\[with Chunk=256\]"}}
#include <cute_cpp/kernels/ssm/ssm_plan.hpp>
namespace kn = cute_cpp::kernels;
using Bad = kn::SsdPlan<64, 128, 256>;
static_assert(Bad::threads > 0);
