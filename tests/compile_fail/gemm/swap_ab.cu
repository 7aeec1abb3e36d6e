// Swapping A and B needs a plan whose C layout is the transpose of the original's.
// expected-error {{"gemm\.swap-ab"}}
#include "examples/gemm_sm90/gemm.hpp"
#include <cuda_bf16.h>
using T = __nv_bfloat16;
namespace ex = cute_cpp::examples;
constexpr auto K = cute_cpp::OperandMajorMode::K;
using Row = ex::GemmPlan<T, T, T, K, K, 128, 128, 64, 4>;
using AlsoRow = ex::GemmPlan<T, T, T, K, K, 128, 16, 64, 4>;
auto const bad = ex::swap_ab_arguments<AlsoRow>(ex::GemmArguments<Row>{});
