// A gated epilogue pairs blocks of 8 gate and 8 up columns: a 120-column tile splits a pair.
// expected-error {{"gemm\.gated"}}
#include "examples/gemm_sm90/gemm.hpp"
#include <cuda_bf16.h>
using T = __nv_bfloat16;
namespace ex = cute_cpp::examples;
using Bad = ex::GemmPlan<T, T, T, ex::GemmConfig{.block_n = 120, .stages = 4}, cute_cpp::epilogue::SwiGLU>;
static_assert(Bad::threads == 384);
