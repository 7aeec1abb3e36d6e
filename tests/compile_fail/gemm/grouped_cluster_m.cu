// A grouped plan in clusters along M is refused: the two CTAs' tile rows may belong to different
// groups, whose B tiles differ, so they cannot share (multicast) one.
// expected-error {{"gemm\.grouped"}}
#include "examples/gemm_sm90/gemm.hpp"
#include <cuda_bf16.h>
namespace ex = cute_cpp::examples;
using Bad = ex::GemmPlan<__nv_bfloat16, __nv_bfloat16, __nv_bfloat16, ex::GemmConfig{.cluster_m = 2, .grouped = true}>;
static_assert(Bad::threads == 384);
