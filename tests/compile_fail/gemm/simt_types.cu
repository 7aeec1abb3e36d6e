// The SIMT GEMM loads 16-bit operands only.
// expected-error {{"gemm\.simt-types"}}
#include "examples/gemm_sm90/gemm.hpp"
namespace ex = cute_cpp::examples;
using Plan = ex::SimtGemmPlan<float, float, cute_cpp::OperandMajorMode::K, cute_cpp::OperandMajorMode::K>;
constexpr int rows = Plan::block_m;
