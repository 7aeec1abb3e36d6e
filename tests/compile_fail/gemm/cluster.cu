// The GEMM takes clusters of 1 or 2 CTAs along M.
// expected-error {{"gemm\.cluster"}}
#include "examples/gemm_sm90/gemm.hpp"
#include <cuda_bf16.h>
using T = __nv_bfloat16;
using Bad = cute_cpp::examples::GemmPlan<T, T, T, cute_cpp::sm90::OperandMajorMode::K,
                                         cute_cpp::sm90::OperandMajorMode::K, 128, 256, 64, 4, 4>;
static_assert(Bad::threads == 384);
