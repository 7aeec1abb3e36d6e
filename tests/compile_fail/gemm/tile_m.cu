// Two consumer warpgroups need at least 64 rows each: BM = 64 is too small.
// expected-error {{"gemm\.tile-m"}}
#include <cute_cpp/kernels/gemm/gemm.hpp>
#include <cuda_bf16.h>
using T = __nv_bfloat16;
using Bad = cute_cpp::kernels::GemmPlan<T, T, T, cute_cpp::kernels::GemmConfig{.block_m = 64, .block_n = 128}>;
static_assert(Bad::threads == 384);
