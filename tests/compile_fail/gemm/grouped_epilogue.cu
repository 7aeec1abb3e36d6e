// A grouped plan with an epilogue that reads C's row (a residual, a per-row scale) is refused:
// the row it would be given is the group's, not C's.
// expected-error {{"gemm\.grouped"}}
#include <cute_cpp/kernels/gemm/gemm.hpp>
#include <cuda_bf16.h>
namespace kn = cute_cpp::kernels;
using Bad = kn::GemmPlan<__nv_bfloat16, __nv_bfloat16, __nv_bfloat16, kn::GemmConfig{.grouped = true},
                         cute_cpp::epilogue::LinearCombination<__nv_bfloat16>>;
static_assert(Bad::threads == 384);
