// Eight 48 KB stages do not fit sm_90a's 227 KB of shared memory per block: verify_plan says so.
// expected-error {{"smem\.budget.*SmemBytes=[0-9]+UL, Budget=232448UL, TargetArch=90"}}
#include <cute_cpp/kernels/gemm/gemm.hpp>
#include <cuda_bf16.h>
using T = __nv_bfloat16;
using Bad = cute_cpp::kernels::GemmPlan<T, T, T, cute_cpp::kernels::GemmConfig{.stages = 8}>;
static_assert(cute_cpp::verify_plan<Bad>());
