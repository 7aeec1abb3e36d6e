// Eight 48 KB stages do not fit sm_90a's 227 KB of shared memory per block.
// expected-error {{"smem\.budget"}}
#include "examples/gemm_sm90/gemm.hpp"
#include <cuda_bf16.h>
using T = __nv_bfloat16;
using Bad = cute_cpp::examples::GemmPlan<T, T, T, cute_cpp::sm90::OperandMajorMode::K,
                                         cute_cpp::sm90::OperandMajorMode::K, 128, 256, 64, 8>;
static_assert(Bad::smem_bytes > 0);
