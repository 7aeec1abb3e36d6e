// A grouped plan with an epilogue that reads C's row (a residual, a per-row scale) is refused:
// the row it would be given is the group's, not C's.
// expected-error {{"gemm\.grouped"}}
#include "examples/gemm_sm90/gemm.hpp"
#include <cuda_bf16.h>
namespace ex = cute_cpp::examples;
using Bad = ex::GemmPlan<__nv_bfloat16, __nv_bfloat16, __nv_bfloat16, ex::GemmConfig{.grouped = true},
                         cute_cpp::epilogue::LinearCombination<__nv_bfloat16>>;
static_assert(Bad::threads == 384);
