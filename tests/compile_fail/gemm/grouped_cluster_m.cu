// A grouped plan in clusters along M is refused: the two CTAs' tile rows may belong to different
// groups, whose B tiles differ, so they cannot share (multicast) one.
// expected-error {{"gemm\.grouped"}}
#include <cute_cpp/kernels/gemm/gemm.hpp>
#include <cuda_bf16.h>
namespace kn = cute_cpp::kernels;
using Bad = kn::GemmPlan<__nv_bfloat16, __nv_bfloat16, __nv_bfloat16, kn::GemmConfig{.cluster_m = 2, .grouped = true}>;
static_assert(Bad::threads == 384);
