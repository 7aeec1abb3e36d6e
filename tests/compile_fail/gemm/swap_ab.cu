// Swapping A and B needs a plan whose C layout is the transpose of the original's.
// expected-error {{"gemm\.swap-ab"}}
#include <cute_cpp/kernels/gemm/gemm.hpp>
#include <cuda_bf16.h>
using T = __nv_bfloat16;
namespace kn = cute_cpp::kernels;
using Row = kn::GemmPlan<T, T, T, kn::GemmConfig{.block_n = 128}>;
using AlsoRow = kn::GemmPlan<T, T, T, kn::GemmConfig{.block_n = 16}>;
auto const bad = kn::swap_ab_arguments<AlsoRow, Row>(kn::GemmArguments<Row>{});
