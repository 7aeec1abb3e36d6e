// Swapping A and B needs a plan whose C layout is the transpose of the original's.
// expected-error {{"gemm\.swap-ab"}}
#include "examples/gemm_sm90/gemm.hpp"
#include <cuda_bf16.h>
using T = __nv_bfloat16;
namespace ex = cute_cpp::examples;
using Row = ex::GemmPlan<T, T, T, ex::GemmConfig{.block_n = 128}>;
using AlsoRow = ex::GemmPlan<T, T, T, ex::GemmConfig{.block_n = 16}>;
auto const bad = ex::swap_ab_arguments<AlsoRow, Row>(ex::GemmArguments<Row>{});
