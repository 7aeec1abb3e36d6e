// A chunk of 96 tokens on the tensor cores: its (L, L) and (L, P) tiles do not split over the 8
// warps' m16n8k8 atoms.
// expected-error {{"ssm\.plan\.tensor-cores.*\[with TensorCores=true, HeadDim=64, State=128, Chunk=96\]"}}
#include <cute_cpp/kernels/ssm/ssm_plan.hpp>
namespace kn = cute_cpp::kernels;
using Bad = kn::SsdPlan<64, 128, 96, kn::SsdProducts::tensor_cores>;
static_assert(Bad::threads > 0);
