// A gated epilogue pairs blocks of 8 gate and 8 up columns: a 120-column tile splits a pair.
// expected-error {{"gemm\.gated"}}
#include <cute_cpp/kernels/gemm/gemm.hpp>
#include <cuda_bf16.h>
using T = __nv_bfloat16;
namespace kn = cute_cpp::kernels;
using Bad = kn::GemmPlan<T, T, T, kn::GemmConfig{.block_n = 120, .stages = 4}, cute_cpp::epilogue::SwiGLU>;
static_assert(Bad::threads == 384);
