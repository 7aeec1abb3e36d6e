// The SIMT GEMM loads 16-bit operands only.
// expected-error {{"gemm\.simt-types"}}
#include <cute_cpp/kernels/gemm/gemm.hpp>
namespace kn = cute_cpp::kernels;
using Plan = kn::SimtGemmPlan<float, float, cute_cpp::OperandMajorMode::K, cute_cpp::OperandMajorMode::K>;
constexpr int rows = Plan::block_m;
